// Secrets: each resource's secret, encrypted by the clients once per user who can read it. The
// server checks their form and recipients and keeps exactly one per such user.
import { definePlugin } from '../../api/plugin.ts'
import { SecretSchema } from './entities/Secret.ts'
import { routes } from './routes.ts'

export { checkArmoredSecret, MAX_SECRET_ARMORED, SECRET_RULE_MESSAGES } from './armored.ts'
export { secretResponse } from './schemas.ts'
export * from './service.ts'
export { SecretSchema }

export default definePlugin({
  name: 'secrets',
  dependsOn: ['users', 'permissions'],
  entities: [SecretSchema],
  routes,
  // Revealing a secret in the workspace is the client's own feature: it decrypts what
  // GET /secrets/resource/{id}.json gives the user. Without the flag it offers copying only.
  settings: () => ({ user: { previewPassword: { enabled: true } } }),
})
