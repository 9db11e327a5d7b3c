// The key the organisation asks new users to generate: passbolt's default, a Curve25519 key.
// Read during setup (before the user has an account to sign in with) and by signed-in users.
import { z } from 'zod'
import { definePlugin, defineRoute } from '../../api/plugin.ts'

const policy = {
  preferred_key_type: 'curve' as const,
  preferred_key_size: null,
  preferred_key_curve: 'curve25519_legacy+ed25519_legacy' as const,
  source: 'default' as const,
}

const response = z.object({
  preferred_key_type: z.enum(['rsa', 'curve']),
  preferred_key_size: z.union([z.literal(3072), z.literal(4096)]).nullable(),
  preferred_key_curve: z.literal('curve25519_legacy+ed25519_legacy').nullable(),
  source: z.enum(['default', 'env', 'file']),
})

const description =
  'The key type new keys should have: `curve` with `curve25519_legacy+ed25519_legacy` (or `rsa` with a size of 3072 or 4096), and where the policy comes from (`default`).'

export default definePlugin({
  name: 'user-key-policies',
  routes: [
    defineRoute({
      method: 'GET',
      path: '/user-key-policies/settings.json',
      action: 'UserKeyPoliciesGetSettings.get',
      summary: 'The key type new keys should have',
      description,
      auth: 'user',
      // The organisation's policy, the same for every user.
      permission: 'none',
      response,
      handler: () => ({ ...policy }),
    }),
    defineRoute({
      method: 'GET',
      path: '/setup/user-key-policies/settings.json',
      action: 'UserKeyPoliciesGetSettings.get',
      summary: 'The key type new keys should have (during setup)',
      description: `${description} Public: the person setting up an account is not signed in yet.`,
      auth: 'public',
      // The policy holds nothing secret, and setup has no session yet.
      permission: 'none',
      response,
      handler: () => ({ ...policy }),
    }),
  ],
  settings: () => ({ public: { userKeyPolicies: { enabled: true, version: '1.0.0' } } }),
})
