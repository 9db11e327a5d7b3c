// The metadata settings in force: what the organisation stored (under `metadataTypes` and
// `metadataKeys`) over passbolt's defaults. The routes answer them and the resources and folders
// plugins enforce them, so clients are never told one thing while the server checks another.
// Administrators replace them whole, checked field by field as passbolt checks them.
import type { EntityManager } from '@mikro-orm/postgresql'
import type { AppContext } from '../../api/app.ts'
import { badRequest } from '../../api/errors.ts'
import { selectRows } from '../../api/orm.ts'
import { readOrganizationSetting, writeOrganizationSetting } from '../settings/index.ts'
import { onlyAccountIsActiveAdmin } from '../users/index.ts'
import { METADATA_KEYS_SETTINGS, METADATA_TYPES_SETTINGS } from './defaults.ts'
import { messages } from './messages.ts'

export type MetadataTypesSettings = {
  -readonly [K in keyof typeof METADATA_TYPES_SETTINGS]: (typeof METADATA_TYPES_SETTINGS)[K] extends string
    ? string
    : boolean
}

export type MetadataKeysSettings = {
  -readonly [K in keyof typeof METADATA_KEYS_SETTINGS]: boolean
}

export const TYPES_PROPERTY = 'metadataTypes'
export const KEYS_PROPERTY = 'metadataKeys'

export const metadataTypesSettings = async (em: EntityManager): Promise<MetadataTypesSettings> => ({
  ...METADATA_TYPES_SETTINGS,
  ...((await readOrganizationSetting<Partial<MetadataTypesSettings>>(em, TYPES_PROPERTY)) ?? {}),
})

export const metadataKeysSettings = async (em: EntityManager): Promise<MetadataKeysSettings> => ({
  ...METADATA_KEYS_SETTINGS,
  ...((await readOrganizationSetting<Partial<MetadataKeysSettings>>(em, KEYS_PROPERTY)) ?? {}),
})

type Errors = Record<string, Record<string, string>>

/** passbolt's booleans: true/false, 1/0 and their strings. */
const asBoolean = (value: unknown): boolean | undefined => {
  if (typeof value === 'boolean') return value
  if (value === 1 || value === '1' || value === 'true') return true
  if (value === 0 || value === '0' || value === 'false') return false
  return undefined
}

const readBooleans = (body: Record<string, unknown>, fields: readonly string[], errors: Errors) => {
  const values: Record<string, boolean> = {}
  for (const field of fields) {
    const value = body[field]
    if (value === undefined || value === null)
      errors[field] = { _required: messages.settingRequired }
    else {
      const parsed = asBoolean(value)
      if (parsed === undefined) errors[field] = { boolean: messages.settingBoolean }
      else values[field] = parsed
    }
  }
  return values
}

const ITEMS = [
  ['default_resource_types', 'resources'],
  ['default_folder_type', 'folders'],
  ['default_tag_type', 'tags'],
  ['default_comment_type', 'comments'],
] as const

const TYPE_FLAGS = [
  ...ITEMS.flatMap(([, item]) => [`allow_creation_of_v5_${item}`, `allow_creation_of_v4_${item}`]),
  'allow_v5_v4_downgrade',
  'allow_v4_v5_upgrade',
]

/** The 14 type settings from a request body, or 400 with passbolt's error tree. */
export const parseTypesSettings = (body: Record<string, unknown>): MetadataTypesSettings => {
  const errors: Errors = {}
  const flags = readBooleans(body, TYPE_FLAGS, errors)
  const defaults: Record<string, string> = {}
  for (const [field, item] of ITEMS) {
    const value = body[field]
    if (value === undefined || value === null || value === '')
      errors[field] = { _required: messages.settingRequired }
    else if (value !== 'v4' && value !== 'v5') errors[field] = { inList: messages.settingVersion }
    else if (flags[`allow_creation_of_${value}_${item}`] === false)
      errors[field] = { defaultTypeMustBeEnabled: messages.defaultMustBeEnabled }
    else defaults[field] = value
    if (
      flags[`allow_creation_of_v4_${item}`] === false &&
      flags[`allow_creation_of_v5_${item}`] === false
    )
      errors[`allow_creation_of_v4_${item}`] = { atLeastOne: messages.bothDisabled }
  }
  if (Object.keys(errors).length > 0) throw badRequest(messages.settingsValidation, errors)
  return { ...METADATA_TYPES_SETTINGS, ...defaults, ...flags } as MetadataTypesSettings
}

/** Whether the settings let anyone create a v5 item. */
const allowsV5 = (settings: MetadataTypesSettings) =>
  ITEMS.some(
    ([field, item]) =>
      settings[field] === 'v5' ||
      settings[`allow_creation_of_v5_${item}` as keyof MetadataTypesSettings] === true,
  )

/** Stores the type settings; v5 items need a live, unexpired metadata key to encrypt to. */
export const saveTypesSettings = async (
  em: EntityManager,
  settings: MetadataTypesSettings,
  userId: string,
) => {
  if (allowsV5(settings)) {
    const active = await selectRows<{ id: string }>(em, (knex) =>
      knex('metadata_keys').whereNull('deleted').whereNull('expired').select('id').limit(1),
    )
    if (active.length === 0) throw badRequest(messages.noActiveKey)
  }
  await writeOrganizationSetting(em, TYPES_PROPERTY, settings, userId)
}

/** The two key settings from a request body, or 400 with passbolt's error tree. */
export const parseKeysSettings = (body: Record<string, unknown>): MetadataKeysSettings => {
  const errors: Errors = {}
  const flags = readBooleans(body, Object.keys(METADATA_KEYS_SETTINGS), errors)
  if (Object.keys(errors).length > 0) throw badRequest(messages.settingsValidation, errors)
  return flags as MetadataKeysSettings
}

/**
 * Whether a new organisation starts with encrypted metadata: its first administrator's
 * extension then generates the metadata key and turns v5 on when their setup completes. True
 * when the server is configured so and the only account is an active administrator.
 */
export const encryptOnInstall = async (em: EntityManager, app: AppContext) => {
  if (app.config.metadataNewOrganisations !== 'v5') return false
  return onlyAccountIsActiveAdmin(em)
}

/**
 * Whether administrators of an organisation that never chose are invited to set encrypted
 * metadata up: no settings stored and no metadata key, public or private, yet. A settings row
 * holding nothing (`{}`, made to be locked) is no choice.
 */
export const gettingStarted = async (em: EntityManager, app: AppContext) => {
  if (app.config.metadataNewOrganisations !== 'v5') return false
  const [{ count }] = await selectRows<{ count: string }>(em, (knex) =>
    knex.select(
      knex.raw(
        `(select count(*) from organization_settings
           where property in (?, ?) and value <> '{}'::jsonb)
         + (select count(*) from metadata_keys)
         + (select count(*) from metadata_private_keys) as count`,
        [TYPES_PROPERTY, KEYS_PROPERTY],
      ),
    ),
  )
  return Number(count) === 0
}
