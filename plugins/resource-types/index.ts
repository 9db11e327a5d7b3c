// Resource types: the kinds of resources (v4 cleartext metadata, v5 encrypted metadata) and the
// schemas of their metadata and secrets, seeded with passbolt's fixed ids.
import { definePlugin } from '../../api/plugin.ts'
import { ResourceTypeSchema } from './entities/ResourceType.ts'
import { routes } from './routes.ts'

export * from './definitions.ts'
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
  routes,
  settings: () => ({ user: { resourceTypes: { enabled: true, version: '1.0.0' } } }),
})
