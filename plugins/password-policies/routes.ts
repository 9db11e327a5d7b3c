// Routes of the password policies plugin: every user reads the policy, administrators set it.
import { z } from 'zod'
import { defineRoute, Reply } from '../../api/plugin.ts'
import { noBody } from '../../api/response-schemas.ts'
import {
  organizationSettingResponse,
  readOrganizationSettingRow,
  writeOrganizationSetting,
} from '../settings/index.ts'
import { DEFAULT_PASSWORD_POLICIES, type PasswordPolicies, passwordPolicies } from './schemas.ts'

const PROPERTY = 'passwordPolicies'

const readPolicies = async (em: Parameters<typeof readOrganizationSettingRow>[0]) => {
  const row = await readOrganizationSettingRow<PasswordPolicies>(em, PROPERTY)
  if (!row) return { ...DEFAULT_PASSWORD_POLICIES, source: 'default' }
  const { value, ...meta } = row
  return { ...meta, ...value, source: 'db' }
}

/** The policy in force, stored (`source: db`, with its row) or passbolt's defaults. */
const policiesResponse = organizationSettingResponse({
  ...passwordPolicies.shape,
  source: z.enum(['default', 'db']),
})

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
    response: policiesResponse,
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
    response: noBody.meta({ description: 'Never a body: the answer is a redirect (302).' }),
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
      response: policiesResponse,
      handler: async ({ em, user, body }) => {
        await writeOrganizationSetting(em, PROPERTY, body, user.id)
        return readPolicies(em)
      },
    }),
  ),
]
