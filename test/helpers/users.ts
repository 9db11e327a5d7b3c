// Makes accounts for tests through the real setup service: registered, then set up with a key.
import { completeSetup, registerUser } from '../../plugins/setup/index.ts'
import type { TestApi } from './api.ts'
import { generateUserKey, type TestUserKey } from './client.ts'

export interface TestUser extends TestUserKey {
  id: string
  username: string
}

export const createActiveUser = async (
  api: TestApi,
  username: string,
  options: { role?: 'admin' | 'user'; keyType?: 'ecc' | 'rsa' } = {},
): Promise<TestUser> => {
  const em = api.app.orm.em.fork()
  const { user, url } = await registerUser(em, api.app, {
    username,
    firstName: 'Test',
    lastName: 'User',
    role: options.role ?? 'user',
  })
  const token = url.split('/').at(-1)!
  // The invitation leaves through the mail queue; a test counting mails must not see it late.
  await api.app.mailer.deliverDue()
  const key = await generateUserKey(username, options.keyType)
  await completeSetup(api.app.orm.em.fork(), user.id, token, key.armoredPublicKey)
  return { ...key, id: user.id, username }
}
