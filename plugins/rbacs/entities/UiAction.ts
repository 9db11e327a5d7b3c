// A part of the clients' interface that roles may be allowed or denied.
import { defineEntity, type InferEntity } from '@mikro-orm/core'
import { baseProperties } from '../../../api/orm.ts'

const p = defineEntity.properties

export const UiActionSchema = defineEntity({
  name: 'UiAction',
  tableName: 'ui_actions',
  properties: {
    ...baseProperties,
    name: p.string().length(255),
  },
})

export type UiAction = InferEntity<typeof UiActionSchema>
