// Roles: the built-in roles users are given.
import { definePlugin } from '../../api/plugin.ts'
import { RoleSchema } from './entities/Role.ts'
import { routes } from './routes.ts'

export { RoleSchema } from './entities/Role.ts'
export { countRoles } from './service.ts'

export default definePlugin({ name: 'roles', entities: [RoleSchema], routes })
