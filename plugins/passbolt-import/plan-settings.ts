// Organisation and account settings: passbolt's properties renamed and reshaped into Keyward's,
// the SMTP settings decrypted with passbolt's server key and sealed again as Keyward keeps them,
// each user's TOTP and Yubikey enrolment kept so nobody enrols again. A setting Keyward does not
// have is reported, never stored where nothing reads it.
import * as openpgp from 'openpgp'
import type { z } from 'zod'
import { notificationChanges } from '../email-notifications/index.ts'
import { METADATA_KEYS_SETTINGS, METADATA_TYPES_SETTINGS } from '../metadata/index.ts'
import { passwordPoliciesBody } from '../password-policies/index.ts'
import { secretRevisionsSettings } from '../secret-revisions/index.ts'
import { selfRegistrationBody } from '../self-registration/index.ts'
import { isSupportedLocale, propertyId } from '../settings/index.ts'
import {
  normalizeSmtpSettings,
  sealSmtpSettings,
  smtpSettingsBody,
} from '../smtp-settings/index.ts'
import { userPassphrasePoliciesBody } from '../user-passphrase-policies/index.ts'
import { ofLiveUser, type PlanContext } from './plan-context.ts'
import { date, jsonObject, ref, str, type TargetRow } from './plan-values.ts'
import type { SourceData, SourceRow } from './source.ts'

export interface ServerKeyPair {
  publicKey: openpgp.Key
  privateKey: openpgp.PrivateKey
}

/** A converted value, or why it cannot be kept. */
type Converted = { value: unknown } | { refused: string }

const refused = (reason: string): Converted => ({ refused: reason })

/** Why a value does not pass a schema: the fields at fault. */
const faults = (error: z.ZodError) =>
  `its value is not valid here: ${[...new Set(error.issues.map((issue) => issue.path.join('.') || 'value'))].join(', ')}`

/** Through the schema the owning plugin checks an administrator's input with (extra fields dropped). */
const bySchema =
  (schema: z.ZodType) =>
  (value: Record<string, unknown>): Converted => {
    const parsed = schema.safeParse(value)
    return parsed.success ? { value: parsed.data } : refused(faults(parsed.error))
  }

/** The fields Keyward knows, each of the type of its default. */
const byDefaults =
  (defaults: Record<string, unknown>) =>
  (value: Record<string, unknown>): Converted => ({
    value: Object.fromEntries(
      Object.entries(value).filter(
        ([field, setting]) => field in defaults && typeof setting === typeof defaults[field],
      ),
    ),
  })

/** Settings stored as a JSON object under the same name in passbolt and Keyward. */
const SAME_NAME: Record<string, (value: Record<string, unknown>) => Converted> = {
  passwordPolicies: bySchema(passwordPoliciesBody),
  userPassphrasePolicies: bySchema(userPassphrasePoliciesBody),
  emailNotification: bySchema(notificationChanges),
  selfRegistration: bySchema(selfRegistrationBody),
  secretRevisions: bySchema(secretRevisionsSettings),
  metadataTypes: byDefaults(METADATA_TYPES_SETTINGS),
  metadataKeys: byDefaults(METADATA_KEYS_SETTINGS),
}

const MFA_PROVIDERS = ['totp', 'yubikey']

/** passbolt accepts `["totp"]` and `{"totp": true}`; Keyward keeps the list. */
const providerList = (value: unknown): string[] => {
  if (Array.isArray(value)) return value.map(String)
  if (value && typeof value === 'object')
    return Object.entries(value)
      .filter(([, enabled]) => Boolean(enabled))
      .map(([name]) => name)
  return []
}

const convertOrganizationMfa = (text: unknown, warnings: string[]): Converted => {
  const settings = jsonObject(text)
  if (!settings) return refused('its value is not a JSON object')
  const providers = providerList(settings.providers)
  if (providers.includes('duo'))
    warnings.push(
      'Duo was an MFA provider in passbolt; Keyward does not offer it: users enrol TOTP or Yubikey',
    )
  const kept = providers.filter((provider) => MFA_PROVIDERS.includes(provider))
  const yubikey = settings.yubikey as Record<string, unknown> | undefined
  if (kept.includes('yubikey') && !(yubikey?.clientId && yubikey.secretKey))
    return refused('Yubikey is enabled without a client id and secret key')
  return {
    value: {
      providers: kept,
      ...(yubikey?.clientId && yubikey.secretKey
        ? {
            yubikey: {
              clientId: String(yubikey.clientId),
              secretKey: String(yubikey.secretKey),
              ...(yubikey.validationUrl ? { validationUrl: String(yubikey.validationUrl) } : {}),
            },
          }
        : {}),
    },
  }
}

/** passbolt's SMTP settings: an OpenPGP message to its server key holding the JSON form. */
const convertSmtp = async (text: unknown, key: ServerKeyPair): Promise<Converted> => {
  let clear: string
  try {
    const { data } = await openpgp.decrypt({
      message: await openpgp.readMessage({ armoredMessage: String(text) }),
      decryptionKeys: key.privateKey,
    })
    clear = String(data)
  } catch (error) {
    return refused(`it cannot be decrypted with the server key (${(error as Error).message})`)
  }
  const parsed = smtpSettingsBody.safeParse(jsonObject(clear) ?? {})
  if (!parsed.success) return refused(faults(parsed.error))
  return { value: await sealSmtpSettings(key, normalizeSmtpSettings(parsed.data)) }
}

/** The CE switch: on (both flags) or no setting at all. */
const convertPasswordExpiry = (text: unknown): Converted => {
  const settings = jsonObject(text)
  if (!settings) return refused('its value is not a JSON object')
  if (settings.automatic_expiry !== true && settings.automatic_expiry !== 1)
    return refused('password expiry is off, which Keyward stores as no setting')
  return { value: { automatic_expiry: true, automatic_update: true } }
}

const convertLocale = (text: unknown): Converted =>
  isSupportedLocale(str(text))
    ? { value: str(text) }
    : refused(`locale ${text} is not one the clients ship`)

const convertOrganizationSetting = async (
  property: string,
  text: unknown,
  context: PlanContext,
  key: ServerKeyPair,
): Promise<[string, Converted]> => {
  if (property === 'smtp') return ['smtpSettings', await convertSmtp(text, key)]
  if (property === 'mfa') return ['mfa', convertOrganizationMfa(text, context.warnings)]
  if (property === 'passwordExpiry') return [property, convertPasswordExpiry(text)]
  if (property === 'locale') return [property, convertLocale(text)]
  const convert = SAME_NAME[property]
  if (convert) {
    const value = jsonObject(text)
    return [property, value ? convert(value) : refused('its value is not a JSON object')]
  }
  return [property, refused(`Keyward has no ${property} setting`)]
}

export const planOrganizationSettings = async (
  source: SourceData,
  context: PlanContext,
  key: ServerKeyPair,
): Promise<TargetRow[]> => {
  const rows: TargetRow[] = []
  for (const setting of source.organization_settings) {
    const [property, converted] = await convertOrganizationSetting(
      String(setting.property),
      setting.value,
      context,
      key,
    )
    if ('refused' in converted) {
      context.skip('organization_settings', setting, `${setting.property}: ${converted.refused}`)
      continue
    }
    rows.push({
      id: setting.id,
      property,
      property_id: propertyId(property),
      value: JSON.stringify(converted.value),
      created: date(setting.created),
      modified: date(setting.modified),
      created_by: ref(setting.created_by),
      modified_by: ref(setting.modified_by),
    })
  }
  return rows
}

/**
 * When a provider was enrolled: passbolt writes an ISO string, or before 2.5 PHP's
 * `{"date": "2018-10-24 12:43:00.000000", "timezone": "UTC"}`; the row's date when unreadable.
 */
const verifiedAt = (value: unknown, fallback: Date | null): string => {
  const text = value && typeof value === 'object' ? (value as { date?: unknown }).date : value
  const php = typeof text === 'string' && /^\d{4}-\d\d-\d\d \d/.test(text)
  const when = new Date(php ? `${String(text).replace(' ', 'T')}Z` : String(text))
  return (Number.isNaN(when.getTime()) ? (fallback ?? new Date()) : when).toISOString()
}

/** A user's MFA enrolment: the TOTP secret (in its provisioning URI) and the Yubikey id. */
const convertAccountMfa = (text: unknown, modified: Date | null): Converted => {
  const settings = jsonObject(text)
  if (!settings) return refused('its value is not a JSON object')
  const providers = providerList(settings.providers)
  const totp = settings.totp as Record<string, unknown> | undefined
  const yubikey = settings.yubikey as Record<string, unknown> | undefined
  const value: Record<string, unknown> = {}
  if (providers.includes('totp') && typeof totp?.otpProvisioningUri === 'string')
    value.totp = {
      otpProvisioningUri: totp.otpProvisioningUri,
      created: verifiedAt(totp.verified, modified),
    }
  if (providers.includes('yubikey') && typeof yubikey?.yubikeyId === 'string')
    value.yubikey = { id: yubikey.yubikeyId, created: verifiedAt(yubikey.verified, modified) }
  if (Object.keys(value).length === 0)
    return refused('no TOTP or Yubikey enrolment (Duo is not offered by Keyward)')
  return { value }
}

const convertAccountSetting = (setting: SourceRow): Converted => {
  const property = String(setting.property)
  const text = setting.value
  if (property === 'mfa') return convertAccountMfa(text, date(setting.modified))
  // passbolt keeps these two as bare strings; Keyward keeps every value as JSON.
  if (property === 'theme') return { value: str(text) }
  if (property === 'locale') return convertLocale(text)
  return refused(`Keyward has no ${property} account setting`)
}

export const planAccountSettings = (source: SourceData, context: PlanContext): TargetRow[] => {
  const rows: TargetRow[] = []
  for (const setting of source.account_settings) {
    if (!ofLiveUser(context, 'account_settings', setting)) continue
    const property = String(setting.property)
    const converted = convertAccountSetting(setting)
    if ('refused' in converted) {
      context.skip('account_settings', setting, `${property}: ${converted.refused}`)
      continue
    }
    rows.push({
      id: setting.id,
      user_id: setting.user_id,
      property,
      property_id: propertyId(property),
      value: JSON.stringify(converted.value),
      created: date(setting.created),
      modified: date(setting.modified),
    })
  }
  return rows
}
