// Routes of the password expiry plugin: whether passwords expire automatically when someone
// loses access to them, read by every user, switched by administrators.
import { z } from 'zod'
import { badRequest, notFound } from '../../api/errors.ts'
import { defineRoute } from '../../api/plugin.ts'
import { noBody } from '../../api/response-schemas.ts'
import {
  deleteOrganizationSetting,
  organizationSettingResponse,
  readOrganizationSettingRow,
  writeOrganizationSetting,
} from '../settings/index.ts'

const PROPERTY = 'passwordExpiry'

/** The community edition has one switch: both flags on (enabled) or the setting deleted. */
const settingsBody = z.object({
  automatic_expiry: z.literal(true, { error: 'The automatic_expiry field must be true.' }),
  automatic_update: z.literal(true, { error: 'The automatic_update field must be true.' }),
})

type Stored = z.output<typeof settingsBody>

/** Both switches on (a stored setting) or off (none), and the fields only passbolt Pro uses. */
const expiryResponse = organizationSettingResponse({
  automatic_expiry: z.boolean(),
  automatic_update: z.boolean(),
  policy_override: z.literal(false),
  default_expiry_period: z.null(),
})

const readSettings = async (em: Parameters<typeof readOrganizationSettingRow>[0]) => {
  const row = await readOrganizationSettingRow<Stored>(em, PROPERTY)
  if (!row)
    return {
      automatic_expiry: false,
      automatic_update: false,
      policy_override: false,
      default_expiry_period: null,
    }
  const { value, ...meta } = row
  return {
    ...meta,
    automatic_expiry: value.automatic_expiry,
    automatic_update: value.automatic_update,
    policy_override: false,
    default_expiry_period: null,
  }
}

export const routes = [
  defineRoute({
    method: 'GET',
    path: '/password-expiry/settings.json',
    action: 'PasswordExpirySettingsGet.get',
    summary: 'Whether passwords expire automatically',
    description:
      'Both flags false (and no id) while the feature is off; true with the row identity once an administrator enabled it.',
    auth: 'user',
    // Every user's client shows expiry according to it.
    permission: 'none',
    response: expiryResponse,
    handler: ({ em }) => readSettings(em),
  }),
  ...(['POST', 'PUT'] as const).map((method) =>
    defineRoute({
      method,
      path: '/password-expiry/settings.json',
      action: 'PasswordExpirySettingsSet.post',
      summary: 'Turn automatic password expiry on',
      description:
        'Both `automatic_expiry` and `automatic_update` must be true (400 otherwise): passwords are marked expired when a user loses access to them, and renewed when updated.',
      auth: 'admin',
      // Organisation settings are for administrators, which `auth` already requires.
      permission: 'none',
      body: settingsBody,
      response: expiryResponse,
      handler: async ({ em, user, body }) => {
        await writeOrganizationSetting(em, PROPERTY, body, user.id)
        return readSettings(em)
      },
    }),
  ),
  defineRoute({
    method: 'DELETE',
    path: '/password-expiry/settings/{id}.json',
    action: 'PasswordExpirySettingsDelete.delete',
    summary: 'Turn automatic password expiry off',
    description:
      'Deletes the setting whose id is given. 400 when the id is not a UUID, 404 when no such setting exists.',
    auth: 'admin',
    // Organisation settings are for administrators, which `auth` already requires.
    permission: 'none',
    params: z.object({ id: z.string() }),
    response: noBody,
    handler: async ({ em, params }) => {
      if (!z.uuid().safeParse(params.id).success)
        throw badRequest('The password expiry setting id should be a valid UUID.')
      const row = await readOrganizationSettingRow(em, PROPERTY)
      if (!row || row.id !== params.id) throw notFound('password expiry setting')
      await deleteOrganizationSetting(em, PROPERTY)
      return null
    },
  }),
]
