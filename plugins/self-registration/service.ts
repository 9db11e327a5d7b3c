// The self-registration settings (an organisation setting) and the checks a registration
// passes: registration open, the address's domain allowed, the address not taken.
import type { EntityManager } from '@mikro-orm/postgresql'
import { HttpError } from '../../api/errors.ts'
import {
  deleteOrganizationSetting,
  readOrganizationSettingRow,
  writeOrganizationSetting,
} from '../settings/index.ts'
import { findUserByUsername } from '../users/index.ts'
import { messages } from './messages.ts'
import type { SelfRegistrationSettings } from './schemas.ts'

const PROPERTY = 'selfRegistration'

/** The saved settings as passbolt answers them, or `{provider: null, data: null}`. */
export const readSelfRegistration = async (em: EntityManager) => {
  const row = await readOrganizationSettingRow<SelfRegistrationSettings>(em, PROPERTY)
  if (!row) return { provider: null, data: null }
  const { value, id, ...meta } = row
  return { id, provider: value.provider, data: value.data, ...meta }
}

export const saveSelfRegistration = async (
  em: EntityManager,
  settings: SelfRegistrationSettings,
  userId: string,
) => {
  // One entry per domain, lower-cased: addresses are compared without case.
  const domains = [...new Set(settings.data.allowed_domains.map((d) => d.toLowerCase()))]
  await writeOrganizationSetting(
    em,
    PROPERTY,
    { provider: settings.provider, data: { allowed_domains: domains } },
    userId,
  )
  return readSelfRegistration(em)
}

/** Removes the settings whose id is given, which closes registration. */
export const deleteSelfRegistration = async (em: EntityManager, id: string) => {
  const row = await readOrganizationSettingRow(em, PROPERTY)
  if (!row || row.id !== id) throw new HttpError(404, messages.settingNotFound)
  await deleteOrganizationSetting(em, PROPERTY)
}

/** The allowed domains, or undefined while registration is closed. */
export const allowedDomains = async (em: EntityManager): Promise<string[] | undefined> => {
  const settings = await readSelfRegistration(em)
  return settings.provider === 'email_domains' ? settings.data.allowed_domains : undefined
}

/**
 * Throws unless a guest may register with `email`: 403 while registration is closed, 400 for a
 * domain that is not allowed, 403 for an address already taken.
 */
export const checkRegistration = async (em: EntityManager, email: string) => {
  const domains = await allowedDomains(em)
  if (!domains) throw new HttpError(403, messages.disabled)
  const domain = email.toLowerCase().split('@').at(-1) ?? ''
  if (!domains.map((d) => d.toLowerCase()).includes(domain))
    throw new HttpError(400, messages.invalidData, {
      email: { checkEmailDomainIsAllowed: messages.domainRefused },
    })
  if (await findUserByUsername(em, email)) throw new HttpError(403, messages.alreadyRegistered)
}
