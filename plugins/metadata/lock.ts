// Changes to metadata keys, their private copies and the key settings queue on the row of the
// organisation's metadata key settings, so that rules over several rows (at most two active keys,
// a fingerprint used once, no server copy in zero-knowledge mode, a copy for a live key only)
// hold under races. One copy per user and key is also a unique index.
import type { EntityManager } from '@mikro-orm/postgresql'
import { lockOrganizationSetting } from '../settings/index.ts'
import { KEYS_PROPERTY } from './settings.ts'

export const lockMetadataKeys = (em: EntityManager) => lockOrganizationSetting(em, KEYS_PROPERTY)
