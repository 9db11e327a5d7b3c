// Users: accounts, profiles and OpenPGP keys.
import { definePlugin } from '../../api/plugin.ts'
import { GpgkeySchema } from './entities/Gpgkey.ts'
import { ProfileSchema } from './entities/Profile.ts'
import { UserSchema } from './entities/User.ts'
import { routes } from './routes.ts'

export type { Gpgkey } from './entities/Gpgkey.ts'
export type { User } from './entities/User.ts'
export * from './service.ts'
export { GpgkeySchema, ProfileSchema, UserSchema }

export default definePlugin({
  name: 'users',
  dependsOn: ['roles'],
  entities: [UserSchema, ProfileSchema, GpgkeySchema],
  routes,
})
