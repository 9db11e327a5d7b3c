// Metadata: the settings routes every client reads after sign-in, answering the v4 defaults
// unless the organisation stored others. /settings.json does not announce the `metadata`
// plugin: managing metadata keys is not built yet.
import { definePlugin } from '../../api/plugin.ts'
import { routes } from './routes.ts'

export {
  type MetadataKeysSettings,
  type MetadataTypesSettings,
  metadataKeysSettings,
  metadataTypesSettings,
} from './settings.ts'

export default definePlugin({ name: 'metadata', dependsOn: ['settings'], routes })
