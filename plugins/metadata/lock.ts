// Changes to metadata keys and their private copies queue behind one transaction lock, so
// rules over several rows (at most two active keys, one copy per user and key) hold under races.
import type { EntityManager } from '@mikro-orm/postgresql'
import { selectSql } from '../../api/orm.ts'

const METADATA_KEYS_LOCK = 7_385_231

export const lockMetadataKeys = (em: EntityManager) =>
  selectSql(em, 'select pg_advisory_xact_lock(:lock)', { lock: METADATA_KEYS_LOCK })
