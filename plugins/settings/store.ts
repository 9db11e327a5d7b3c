// Reads and writes organisation and account settings by property name.
import type { EntityManager } from '@mikro-orm/postgresql'
import { v5 as uuidv5 } from 'uuid'
import { type AccountSetting, AccountSettingSchema } from './entities/AccountSetting.ts'
import {
  type OrganizationSetting,
  OrganizationSettingSchema,
} from './entities/OrganizationSetting.ts'

const NAMESPACE = 'd5447ca1-950f-459d-8b20-86ddfdd0f922'
const propertyId = (property: string) => uuidv5(property, NAMESPACE)

export const readOrganizationSetting = async <T>(
  em: EntityManager,
  property: string,
): Promise<T | undefined> =>
  ((await em.findOne(OrganizationSettingSchema, { property }))?.value as T | undefined) ?? undefined

export const writeOrganizationSetting = async (
  em: EntityManager,
  property: string,
  value: unknown,
  userId: string,
) => {
  const existing = await em.findOne(OrganizationSettingSchema, { property })
  if (existing) {
    existing.value = value
    existing.modifiedBy = userId
  } else
    em.create(OrganizationSettingSchema, {
      property,
      propertyId: propertyId(property),
      value,
      createdBy: userId,
      modifiedBy: userId,
    } as OrganizationSetting)
  await em.flush()
}

export const readAccountSetting = async <T>(
  em: EntityManager,
  userId: string,
  property: string,
): Promise<T | undefined> => {
  const row = await em.findOne(AccountSettingSchema, { userId, property })
  return row ? (JSON.parse(row.value) as T) : undefined
}

export const writeAccountSetting = async (
  em: EntityManager,
  userId: string,
  property: string,
  value: unknown,
) => {
  const existing = await em.findOne(AccountSettingSchema, { userId, property })
  if (value === undefined) {
    if (existing) await em.removeAndFlush(existing)
    return
  }
  if (existing) existing.value = JSON.stringify(value)
  else
    em.create(AccountSettingSchema, {
      userId,
      property,
      propertyId: propertyId(property),
      value: JSON.stringify(value),
    } as AccountSetting)
  await em.flush()
}
