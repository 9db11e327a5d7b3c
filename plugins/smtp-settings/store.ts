// The SMTP settings an administrator saved: one organisation setting whose value is an
// OpenPGP message encrypted to the server key and signed by it, so the database (and its
// backups) never hold the SMTP password or OAuth2 secret in clear.
import type { EntityManager } from '@mikro-orm/postgresql'
import * as openpgp from 'openpgp'
import type { AppContext } from '../../api/app.ts'
import { readOrganizationSettingRow, writeOrganizationSetting } from '../settings/index.ts'
import type { SmtpSettingsInput } from './schemas.ts'

const PROPERTY = 'smtpSettings'

/** What is kept: every field, absent ones as null. */
export interface StoredSmtpSettings {
  sender_name: string
  sender_email: string
  host: string
  port: number
  tls: boolean
  client: string | null
  username: string | null
  password: string | null
  tenant_id: string | null
  client_id: string | null
  client_secret: string | null
  oauth_username: string | null
}

export const normalizeSettings = (input: SmtpSettingsInput): StoredSmtpSettings => {
  const oauth = Boolean(input.client_id)
  return {
    sender_name: input.sender_name,
    sender_email: input.sender_email,
    host: input.host,
    port: input.port,
    tls: input.tls,
    client: input.client ?? null,
    // OAuth2 replaces username and password, and the other way round (as passbolt does).
    username: oauth ? null : (input.username ?? null),
    password: oauth ? null : (input.password ?? null),
    tenant_id: oauth ? (input.tenant_id ?? null) : null,
    client_id: oauth ? (input.client_id ?? null) : null,
    client_secret: oauth ? (input.client_secret ?? null) : null,
    oauth_username: oauth ? (input.oauth_username ?? null) : null,
  }
}

/** The stored value: the settings encrypted to the server key and signed by it. */
export const sealSmtpSettings = async (
  key: { publicKey: openpgp.Key; privateKey: openpgp.PrivateKey },
  settings: StoredSmtpSettings,
) =>
  (await openpgp.encrypt({
    message: await openpgp.createMessage({ text: JSON.stringify(settings) }),
    encryptionKeys: key.publicKey,
    signingKeys: key.privateKey,
  })) as string

const decrypt = async (app: AppContext, armored: string): Promise<StoredSmtpSettings> => {
  const { data, signatures } = await openpgp.decrypt({
    message: await openpgp.readMessage({ armoredMessage: armored }),
    decryptionKeys: app.serverKey.privateKey,
    verificationKeys: app.serverKey.publicKey,
    expectSigned: true,
  })
  await signatures[0].verified
  return JSON.parse(data as string) as StoredSmtpSettings
}

export class UnreadableSmtpSettingsError extends Error {
  override name = 'UnreadableSmtpSettingsError'
}

/** The saved settings with their row's identity, or undefined when none were saved. */
export const readSavedSmtpSettings = async (em: EntityManager, app: AppContext) => {
  const row = await readOrganizationSettingRow<unknown>(em, PROPERTY)
  if (!row) return undefined
  const { value, ...meta } = row
  try {
    if (typeof value !== 'string') throw new Error('not an OpenPGP message')
    return { meta, settings: await decrypt(app, value) }
  } catch (error) {
    // A server key replaced since the settings were saved: they cannot be read any more.
    throw new UnreadableSmtpSettingsError(
      'the saved SMTP settings cannot be decrypted with the server key',
      { cause: error },
    )
  }
}

export const writeSmtpSettings = async (
  em: EntityManager,
  app: AppContext,
  settings: StoredSmtpSettings,
  userId: string,
) => writeOrganizationSetting(em, PROPERTY, await sealSmtpSettings(app.serverKey, settings), userId)
