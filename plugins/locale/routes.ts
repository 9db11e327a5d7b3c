// Routes of the locale plugin: the organisation's language (administrators) and each user's own.
import { z } from 'zod'
import { badRequest } from '../../api/errors.ts'
import { defineRoute } from '../../api/plugin.ts'
import { checkedLater } from '../../api/validation.ts'
import {
  accountSettingResponse,
  isSupportedLocale,
  LOCALE_OPTIONS,
  ORGANIZATION_LOCALE,
  organizationSettingRowResponse,
  readAccountSettingRows,
  readOrganizationSettingRow,
  writeAccountSetting,
  writeOrganizationSetting,
} from '../settings/index.ts'

const INVALID = 'This is not a valid locale.'

/**
 * `value`, a language the clients ship. passbolt refuses any other value with its message alone,
 * no validation tree, so the route checks it (`localeOf`).
 */
const localeBody = z.object({
  value: checkedLater(
    z.enum(LOCALE_OPTIONS.map((option) => option.locale)).meta({ examples: ['fr-FR'] }),
  ).optional(),
})

const localeOf = (value: unknown) => {
  if (!isSupportedLocale(value)) throw badRequest(INVALID)
  return value
}

export const routes = [
  defineRoute({
    method: 'POST',
    path: '/locale/settings.json',
    action: 'OrganizationLocalesSelect.select',
    summary: "Set the organisation's language",
    description:
      'Stores `value` (e.g. `fr-FR`) as the language /settings.json announces, which guests and users who chose none get. Refuses (400) a language the clients do not ship.',
    auth: 'admin',
    // Organisation settings are for administrators, which `auth` already requires.
    permission: 'none',
    body: localeBody,
    response: organizationSettingRowResponse(z.string()),
    handler: async ({ em, user, body }) => {
      await writeOrganizationSetting(em, ORGANIZATION_LOCALE, localeOf(body.value), user.id)
      const row = await readOrganizationSettingRow<string>(em, ORGANIZATION_LOCALE)
      return { ...row, property: ORGANIZATION_LOCALE }
    },
  }),
  defineRoute({
    method: 'POST',
    path: '/account/settings/locales.json',
    action: 'AccountLocalesSelect.select',
    summary: "Set the caller's language",
    description:
      "Stores `value` as the caller's language. Refuses (400) a language the clients do not ship.",
    auth: 'user',
    // Only the caller's own setting is written.
    permission: 'none',
    body: localeBody,
    response: accountSettingResponse,
    handler: async ({ em, user, body }) => {
      await writeAccountSetting(em, user.id, 'locale', localeOf(body.value))
      const [row] = await readAccountSettingRows(em, user.id, ['locale'])
      return row
    },
  }),
]
