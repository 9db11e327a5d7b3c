// Resource types: the kinds of resources (v4 cleartext metadata, v5 encrypted metadata) and the
// schemas of their metadata and secrets, seeded with passbolt's fixed ids.
import { definePlugin } from '../../api/plugin.ts'
import { ResourceTypeSchema } from './entities/ResourceType.ts'
import { Migration20261126120000StandaloneTypes } from './migrations/Migration20261126120000StandaloneTypes.ts'
import { routes } from './routes.ts'

export * from './definitions.ts'
export { resourceTypeResponse } from './schemas.ts'
export {
  findResourceType,
  listResourceTypes,
  liveResourceTypes,
  type ResourceTypeJson,
} from './service.ts'
export { ResourceTypeSchema }

export default definePlugin({
  name: 'resource-types',
  entities: [ResourceTypeSchema],
  migrations: [
    {
      name: 'Migration20261126120000StandaloneTypes',
      class: Migration20261126120000StandaloneTypes,
    },
  ],
  routes,
  settings: () => ({
    user: {
      resourceTypes: { enabled: true, version: '1.0.0' },
      // The TOTP types are listed and created like the others, as passbolt 5.12's CE lists them.
      totpResourceTypes: { enabled: true, version: '1.0.0' },
    },
  }),
})
