// Reads and writes the passphrase policy (an organisation setting).
import type { EntityManager } from '@mikro-orm/postgresql'
import { readOrganizationSettingRow, writeOrganizationSetting } from '../settings/index.ts'

const PROPERTY = 'userPassphrasePolicies'

export interface UserPassphrasePolicies {
  entropy_minimum: number
  external_dictionary_check: boolean
}

const DEFAULTS: UserPassphrasePolicies = { entropy_minimum: 50, external_dictionary_check: true }

/** The stored policy with its row's identity and dates, or the defaults. */
export const readUserPassphrasePolicies = async (em: EntityManager) => {
  const row = await readOrganizationSettingRow<UserPassphrasePolicies>(em, PROPERTY)
  if (!row) return { ...DEFAULTS }
  const { value, ...meta } = row
  return { ...meta, ...value }
}

export const writeUserPassphrasePolicies = (
  em: EntityManager,
  value: UserPassphrasePolicies,
  userId: string,
) => writeOrganizationSetting(em, PROPERTY, value, userId)
