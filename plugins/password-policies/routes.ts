// Routes of the password policies plugin: every user reads the policy, administrators set it.
import { defineRoute, Reply } from '../../api/plugin.ts'
import { readOrganizationSettingRow, writeOrganizationSetting } from '../settings/index.ts'
import { DEFAULT_PASSWORD_POLICIES, type PasswordPolicies, passwordPolicies } from './schemas.ts'

const PROPERTY = 'passwordPolicies'

const readPolicies = async (em: Parameters<typeof readOrganizationSettingRow>[0]) => {
  const row = await readOrganizationSettingRow<PasswordPolicies>(em, PROPERTY)
  if (!row) return { ...DEFAULT_PASSWORD_POLICIES, source: 'default' }
  const { value, ...meta } = row
  return { ...meta, ...value, source: 'db' }
}

export const routes = [
  defineRoute({
    method: 'GET',
    path: '/password-policies/settings.json',
    action: 'PasswordPoliciesSettingsGet.get',
    summary: "The organisation's password generator policy",
    description:
      "The generator the clients offer first, both generators' settings and the breach check; passbolt's defaults (`source: default`) until an administrator saves one (`source: db`).",
    auth: 'user',
    // Every user's client applies the policy.
    permission: 'none',
    handler: ({ em }) => readPolicies(em),
  }),
  defineRoute({
    method: 'GET',
    path: '/password-generator/settings.json',
    action: 'PasswordGeneratorSettings.redirect',
    summary: 'Deprecated: redirects to /password-policies/settings.json',
    description:
      'Kept for older clients: answers 302 to `/password-policies/settings.json`, which describes the same policy.',
    auth: 'user',
    // A redirect; the target decides.
    permission: 'none',
    handler: () => new Reply(null, { redirect: '/password-policies/settings.json' }),
  }),
  ...(['POST', 'PUT'] as const).map((method) =>
    defineRoute({
      method,
      path: '/password-policies/settings.json',
      action: 'PasswordPoliciesSettingsPost.post',
      summary: "Set the organisation's password generator policy",
      description:
        "Replaces the whole policy. Refuses (400, keyed by field) a missing field, an unknown generator or word case, or a length or word count outside the clients' bounds.",
      auth: 'admin',
      // Organisation settings are for administrators, which `auth` already requires.
      permission: 'none',
      body: passwordPolicies,
      handler: async ({ em, user, body }) => {
        await writeOrganizationSetting(em, PROPERTY, body, user!.id)
        return readPolicies(em)
      },
    }),
  ),
]
