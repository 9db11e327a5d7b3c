// What an administrator sends to save or test SMTP settings, as passbolt's clients send it:
// booleans and numbers may come as strings, empty credentials mean none, and the OAuth2 fields
// (Microsoft 365 client credentials) come together or not at all.
import { z } from 'zod'
import { organizationSettingResponse } from '../settings/index.ts'
import { messages } from './messages.ts'

const HOSTNAME =
  /^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)(\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)*\.?$/i
const IPV4 = /^(25[0-5]|2[0-4]\d|1?\d?\d)(\.(25[0-5]|2[0-4]\d|1?\d?\d)){3}$/
const IPV6 = /^\[?[0-9a-f:.]+\]?$/i

export const isHostname = (value: string) =>
  HOSTNAME.test(value) || IPV4.test(value) || (value.includes(':') && IPV6.test(value))

/** `""` and `null` both mean "not set". */
const optionalText = (max: number) =>
  z.preprocess((value) => (value === '' ? null : value), z.string().max(max).nullable().optional())

const TRUE = new Set<unknown>([true, 1, '1', 'true'])
const FALSE = new Set<unknown>([false, 0, '0', 'false', null, ''])

const settingsFields = {
  sender_name: z.string().min(1).max(256),
  sender_email: z.email().max(256),
  host: z
    .string()
    .min(1)
    .max(256)
    .refine((host) => isHostname(host.replace(/^(ssl|tls):\/\//i, '')), {
      error: messages.invalidHost,
      params: { rule: 'hostname' },
    }),
  // passbolt stores "no TLS" as null; its clients send booleans.
  tls: z.preprocess(
    (value) => (TRUE.has(value) ? true : FALSE.has(value) ? false : value),
    z.boolean(),
  ),
  port: z.preprocess(
    (value) => (typeof value === 'string' && /^\d{1,5}$/.test(value) ? Number(value) : value),
    z.int().min(1).max(65535),
  ),
  client: z.preprocess(
    (value) => (value === '' ? null : value),
    z
      .string()
      .max(2048)
      .refine(isHostname, { error: messages.invalidClient, params: { rule: 'hostname' } })
      .nullable()
      .optional(),
  ),
  username: optionalText(256),
  password: optionalText(4096),
  tenant_id: z.preprocess((value) => (value === '' ? null : value), z.uuid().nullable().optional()),
  client_id: z.preprocess((value) => (value === '' ? null : value), z.uuid().nullable().optional()),
  client_secret: optionalText(256),
  oauth_username: z.preprocess(
    (value) => (value === '' ? null : value),
    z.email().max(256).nullable().optional(),
  ),
}

const OAUTH_FIELDS = ['tenant_id', 'client_id', 'client_secret', 'oauth_username'] as const

/** With a client id, the other OAuth2 fields are required. */
const requireOauthFields = (
  settings: { client_id?: string | null } & Record<string, unknown>,
  context: z.RefinementCtx,
) => {
  if (!settings.client_id) return
  for (const field of OAUTH_FIELDS)
    if (!settings[field])
      context.addIssue({
        code: 'custom',
        path: [field],
        message: messages.oauthFieldRequired,
        params: { rule: '_required' },
      })
}

export const smtpSettingsBody = z.object(settingsFields).superRefine(requireOauthFields)

export const smtpTestBody = z
  .object({ ...settingsFields, email_test_to: z.email().max(256) })
  .superRefine(requireOauthFields)

export type SmtpSettingsInput = z.output<typeof smtpSettingsBody>

const nullableText = z.string().nullable()

/**
 * The settings in force: saved ones (`source: db`, with their row) or the configuration's
 * (`source: env`). Administrators only: the password and the OAuth2 secret are shown to them as
 * passbolt shows them, to edit.
 */
export const smtpSettingsResponse = organizationSettingResponse({
  source: z.enum(['db', 'env']),
  sender_name: z.string(),
  sender_email: z.string(),
  host: z.string(),
  port: z.number().int(),
  tls: z.boolean(),
  client: nullableText,
  username: nullableText,
  password: nullableText,
  tenant_id: nullableText,
  client_id: nullableText,
  client_secret: nullableText,
  oauth_username: nullableText,
})

/** The SMTP conversation of a test mail, credentials masked. */
export const smtpTestResponse = z.object({
  debug: z.array(
    z.object({
      cmd: z.string().nullable(),
      response: z.array(z.object({ code: z.number(), message: z.string() })),
    }),
  ),
})
