// An organisation-wide setting (MFA providers, later metadata and password policies), as JSON.
import { defineEntity, type InferEntity } from '@mikro-orm/core'
import { baseProperties } from '../../../api/orm.ts'

const p = defineEntity.properties

export const OrganizationSettingSchema = defineEntity({
  name: 'OrganizationSetting',
  tableName: 'organization_settings',
  properties: {
    ...baseProperties,
    property: p.string().length(100).unique(),
    propertyId: p.uuid().unique(),
    value: p.json<unknown>(),
    createdBy: p.uuid().nullable(),
    modifiedBy: p.uuid().nullable(),
  },
})

export type OrganizationSetting = InferEntity<typeof OrganizationSettingSchema>
