// Auth: the server key endpoint for GPGAuth clients.
import { definePlugin } from '../../api/plugin.ts'
import { routes } from './routes.ts'

export default definePlugin({ name: 'auth', routes })
