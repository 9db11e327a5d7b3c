// An account transfer to a phone: the browser extension shows the user's key as numbered QR
// codes, the phone reports each page it read, and both follow the transfer's status.
import { defineEntity, type InferEntity } from '@mikro-orm/core'
import { baseProperties } from '../../../api/orm.ts'

const p = defineEntity.properties

export const TransferSchema = defineEntity({
  name: 'Transfer',
  tableName: 'transfers',
  properties: {
    ...baseProperties,
    userId: p.uuid(),
    authenticationTokenId: p.uuid(),
    hash: p.string().length(128),
    currentPage: p.integer(),
    totalPages: p.integer(),
    status: p.string().length(16),
  },
})

export type Transfer = InferEntity<typeof TransferSchema>
