// A per-user setting (the user's MFA devices, locale), stored as text.
import { defineEntity, type InferEntity } from '@mikro-orm/core'
import { baseProperties } from '../../../api/orm.ts'

const p = defineEntity.properties

export const AccountSettingSchema = defineEntity({
  name: 'AccountSetting',
  tableName: 'account_settings',
  properties: {
    ...baseProperties,
    userId: p.uuid(),
    property: p.string().length(100),
    propertyId: p.uuid(),
    value: p.text(),
  },
})

export type AccountSetting = InferEntity<typeof AccountSettingSchema>
