// Metadata: the settings routes every client reads after sign-in, answering the v4 defaults.
// /settings.json does not announce the `metadata` plugin: encrypted metadata is not built yet.
import { definePlugin } from '../../api/plugin.ts'
import { routes } from './routes.ts'

export default definePlugin({ name: 'metadata', routes })
