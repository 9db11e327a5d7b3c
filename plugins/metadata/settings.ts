// The metadata settings in force: what the organisation stored (under `metadataTypes` and
// `metadataKeys`) over passbolt's defaults. The routes answer them and the resources plugin
// enforces them, so clients are never told one thing while the server checks another.
import type { EntityManager } from '@mikro-orm/postgresql'
import { readOrganizationSetting } from '../settings/index.ts'
import { METADATA_KEYS_SETTINGS, METADATA_TYPES_SETTINGS } from './defaults.ts'

export type MetadataTypesSettings = {
  -readonly [K in keyof typeof METADATA_TYPES_SETTINGS]: (typeof METADATA_TYPES_SETTINGS)[K] extends string
    ? string
    : boolean
}

export type MetadataKeysSettings = {
  -readonly [K in keyof typeof METADATA_KEYS_SETTINGS]: boolean
}

export const metadataTypesSettings = async (em: EntityManager): Promise<MetadataTypesSettings> => ({
  ...METADATA_TYPES_SETTINGS,
  ...((await readOrganizationSetting<Partial<MetadataTypesSettings>>(em, 'metadataTypes')) ?? {}),
})

export const metadataKeysSettings = async (em: EntityManager): Promise<MetadataKeysSettings> => ({
  ...METADATA_KEYS_SETTINGS,
  ...((await readOrganizationSetting<Partial<MetadataKeysSettings>>(em, 'metadataKeys')) ?? {}),
})
