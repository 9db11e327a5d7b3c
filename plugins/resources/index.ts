// Resources: the passwords (and other items) people keep and share, v4 with cleartext metadata
// or v5 with encrypted metadata, each readable by the users its permissions name.
import { definePlugin } from '../../api/plugin.ts'
import { userDeletion } from '../users/index.ts'
import { resourceDeletion } from './deletion.ts'
import { keepResourceLists } from './documents.ts'
import { ResourceSchema } from './entities/Resource.ts'
import { metadataBatchRoutes } from './metadata-batch.ts'
import { Migration20261127010100ResourceRecords } from './migrations/Migration20261127010100ResourceRecords.ts'
import { routes } from './routes.ts'

export { type ResourceRow, selectResources } from './query.ts'
export { resourceResponse } from './response.ts'
export { type ResourceJson, resourceJson } from './serialize.ts'
export { assertCanCreateIn, softDeleteResources } from './service.ts'
export { ResourceSchema }

export default definePlugin({
  name: 'resources',
  dependsOn: ['users', 'permissions', 'resource-types', 'secrets', 'settings'],
  // Their contains and filters extend the resources' routes, and a deleted resource takes their
  // rows; a resource is still a resource without them.
  reads: ['favorites', 'metadata', 'folder-tree', 'tags', 'comments'],
  entities: [ResourceSchema],
  // A resource's type, deletion and last editor, for the plugins below this one.
  views: ['resource_records'],
  migrations: [
    {
      name: 'Migration20261127010100ResourceRecords',
      class: Migration20261127010100ResourceRecords,
    },
  ],
  routes: [...routes, ...metadataBatchRoutes],
  init: async (app) => keepResourceLists(app),
  extensions: [userDeletion.provide(resourceDeletion)],
})
