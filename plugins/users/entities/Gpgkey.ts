// A user's OpenPGP public key; one active key per user.
import { defineEntity, type InferEntity } from '@mikro-orm/core'
import { baseProperties } from '../../../api/orm.ts'

const p = defineEntity.properties

export const GpgkeySchema = defineEntity({
  name: 'Gpgkey',
  tableName: 'gpgkeys',
  properties: {
    ...baseProperties,
    userId: p.uuid(),
    armoredKey: p.text(),
    bits: p.integer().nullable(),
    uid: p.string().length(128),
    keyId: p.string().length(16),
    fingerprint: p.string().length(51),
    type: p.string().length(16),
    expires: p.datetime().nullable(),
    keyCreated: p.datetime().nullable(),
    deleted: p.boolean().default(false),
  },
})

export type Gpgkey = InferEntity<typeof GpgkeySchema>
