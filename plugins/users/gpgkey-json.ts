// An OpenPGP public key as the API answers it, with the facts read from the key when it was
// stored (bits, uid, key id, fingerprint, type, expiry, creation).
import { formatTimestamp } from '../../api/envelope.ts'

export const GPGKEY_COLUMNS = [
  'id',
  'user_id',
  'armored_key',
  'bits',
  'uid',
  'key_id',
  'fingerprint',
  'type',
  'expires',
  'key_created',
  'deleted',
  'created',
  'modified',
] as const

export interface GpgkeyRow {
  id: string
  user_id: string
  armored_key: string
  bits: number | null
  uid: string
  key_id: string
  fingerprint: string
  type: string
  expires: string | null
  key_created: string | null
  deleted: boolean
  created: string
  modified: string
}

export const gpgkeyJson = (row: GpgkeyRow) => ({
  ...row,
  expires: formatTimestamp(row.expires),
  key_created: formatTimestamp(row.key_created),
  created: formatTimestamp(row.created),
  modified: formatTimestamp(row.modified),
})
