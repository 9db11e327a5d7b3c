// Routes of the account settings plugin: a user's own theme and language, and the themes on offer.
import { z } from 'zod'
import { badRequest, notFound } from '../../api/errors.ts'
import { defineRoute, Reply } from '../../api/plugin.ts'
import { checkedLater } from '../../api/validation.ts'
import {
  accountSettingResponse,
  readAccountSettingRows,
  writeAccountSetting,
} from '../settings/index.ts'
import { messages } from './messages.ts'
import { listThemes, THEME_NAMES, themePreview } from './themes.ts'

/** The account settings a client may read back; others (MFA devices) stay private. */
/** A theme the caller may choose, with a preview picture. */
const themeResponse = z.object({ id: z.string(), name: z.string(), preview: z.string() })

const PUBLIC_PROPERTIES = ['locale', 'theme'] as const

/**
 * `value`, a theme on offer. passbolt refuses a missing or unknown theme with its message alone,
 * no validation tree, so the handler checks it.
 */
const themeBody = z.object({
  value: checkedLater(z.enum(THEME_NAMES).meta({ examples: ['midgar'] })).optional(),
})

export const routes = [
  defineRoute({
    method: 'GET',
    path: '/account/settings.json',
    action: 'AccountSettingsIndex.index',
    summary: "The caller's theme and language settings",
    description:
      'Lists the theme and locale the caller chose, one row each; a setting never chosen is absent and the client uses the organisation default.',
    auth: 'user',
    // Only the caller's own settings are read.
    permission: 'none',
    response: z.array(accountSettingResponse),
    handler: ({ em, user }) => readAccountSettingRows(em, user.id, PUBLIC_PROPERTIES),
  }),
  defineRoute({
    method: 'GET',
    path: '/account/settings/themes.json',
    action: 'ThemesIndex.index',
    summary: 'The themes a user may choose',
    description: 'Lists each theme with its id, name and preview picture URL.',
    auth: 'user',
    // The list is the same for everyone.
    permission: 'none',
    response: z.array(themeResponse),
    handler: ({ app }) => listThemes(app.config.appUrl),
  }),
  defineRoute({
    method: 'POST',
    path: '/account/settings/themes.json',
    action: 'ThemesSelect.select',
    summary: "Set the caller's theme",
    description:
      "Stores `value` as the caller's theme. Refuses (400) a missing value or a theme that is not offered.",
    auth: 'user',
    // Only the caller's own setting is written.
    permission: 'none',
    body: themeBody,
    response: accountSettingResponse,
    handler: async ({ em, user, body }) => {
      if (body.value === undefined || body.value === null || body.value === '')
        throw badRequest(messages.themeRequired)
      if (typeof body.value !== 'string' || !THEME_NAMES.includes(body.value))
        throw badRequest(messages.themeInvalid)
      await writeAccountSetting(em, user.id, 'theme', body.value)
      const [row] = await readAccountSettingRows(em, user.id, ['theme'])
      return row
    },
  }),
  defineRoute({
    method: 'GET',
    path: '/img/themes/{file}',
    action: 'Themes.preview',
    summary: "A theme's preview picture",
    auth: 'public',
    // Public pictures, the same for everyone.
    permission: 'none',
    openapi: false,
    params: z.object({ file: z.string().max(64) }),
    handler: ({ params }) => {
      const svg = params.file.endsWith('.svg') ? themePreview(params.file.slice(0, -4)) : undefined
      if (!svg) throw notFound()
      return new Reply(Buffer.from(svg), {
        binary: 'image/svg+xml',
        headers: { 'Cache-Control': 'public, max-age=86400' },
      })
    },
  }),
]
