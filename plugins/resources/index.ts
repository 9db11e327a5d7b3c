// Resources: the passwords (and other items) people keep and share, v4 with cleartext metadata
// or v5 with encrypted metadata, each readable by the users its permissions name.
import { definePlugin } from '../../api/plugin.ts'
import { resourceDeletion } from './deletion.ts'
import { ResourceSchema } from './entities/Resource.ts'
import { routes } from './routes.ts'

export { type ResourceRow, selectResources } from './query.ts'
export { type ResourceJson, resourceJson } from './serialize.ts'
export { assertCanCreateIn, softDeleteResources } from './service.ts'
export { ResourceSchema }

export default definePlugin({
  name: 'resources',
  dependsOn: [
    'users',
    'permissions',
    'resource-types',
    'secrets',
    'favorites',
    'settings',
    'metadata',
    'folder-tree',
    'tags',
    'comments',
  ],
  entities: [ResourceSchema],
  routes,
  deletion: resourceDeletion,
})
