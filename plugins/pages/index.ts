// Pages: the server-rendered HTML shells the official browser extension attaches to.
import { definePlugin } from '../../api/plugin.ts'
import { routes } from './routes.ts'

export default definePlugin({ name: 'pages', dependsOn: ['auth', 'settings'], routes })
