// Reads and writes organisation and account settings by property name.
import { randomUUID } from 'node:crypto'
import type { EntityManager } from '@mikro-orm/postgresql'
import { v5 as uuidv5 } from 'uuid'
import { lockRows } from '../../api/db/transaction.ts'
import { formatDate } from '../../api/envelope.ts'
import { HttpError, messages } from '../../api/errors.ts'
import { executeStatement, selectRows } from '../../api/orm.ts'
import { type AccountSetting, AccountSettingSchema } from './entities/AccountSetting.ts'
import {
  type OrganizationSetting,
  OrganizationSettingSchema,
} from './entities/OrganizationSetting.ts'

const NAMESPACE = 'd5447ca1-950f-459d-8b20-86ddfdd0f922'
/** A setting's `property_id`, the same for a property on every server. */
export const propertyId = (property: string) => uuidv5(property, NAMESPACE)

export const readOrganizationSetting = async <T>(
  em: EntityManager,
  property: string,
): Promise<T | undefined> =>
  ((await em.findOne(OrganizationSettingSchema, { property }))?.value as T | undefined) ?? undefined

/** Creates or replaces the setting in one statement, so concurrent first writes cannot collide. */
export const writeOrganizationSetting = async (
  em: EntityManager,
  property: string,
  value: unknown,
  userId: string,
) => {
  const now = new Date()
  await em.upsert(
    OrganizationSettingSchema,
    {
      id: randomUUID(),
      property,
      propertyId: propertyId(property),
      value,
      createdBy: userId,
      modifiedBy: userId,
      created: now,
      modified: now,
    } as OrganizationSetting,
    { onConflictFields: ['property'], onConflictMergeFields: ['value', 'modifiedBy', 'modified'] },
  )
}

/**
 * Locks the row of an organisation setting (`lockRows`, for update) until the transaction ends,
 * so that changes to what the setting governs queue up on it. A missing row is made first,
 * holding no choice (`{}`, which reads as the defaults), so there is always a row to lock.
 */
export const lockOrganizationSetting = async (em: EntityManager, property: string) => {
  for (let attempt = 0; attempt < 3; attempt++) {
    const [row] = await selectRows<{ id: string }>(em, (knex) =>
      knex('organization_settings').where({ property }).select('id'),
    )
    if (row) {
      if ((await lockRows(em, 'organization_settings', [row.id])).size > 0) return
      continue
    }
    const now = new Date()
    await executeStatement(em, (knex) =>
      knex('organization_settings')
        .insert({
          id: randomUUID(),
          property,
          property_id: propertyId(property),
          value: '{}',
          created: now,
          modified: now,
        })
        .onConflict('property')
        .ignore(),
    )
  }
  // Only a setting deleted each time between finding and locking it gets here.
  throw new HttpError(409, messages.concurrentChange)
}

export const readAccountSetting = async <T>(
  em: EntityManager,
  userId: string,
  property: string,
): Promise<T | undefined> => {
  const row = await em.findOne(AccountSettingSchema, { userId, property })
  return row ? (JSON.parse(row.value) as T) : undefined
}

/** One account setting of many users at once, by user id (users without it left out). */
export const readAccountSettingOfUsers = async <T>(
  em: EntityManager,
  userIds: readonly string[],
  property: string,
): Promise<Map<string, T>> => {
  if (userIds.length === 0) return new Map()
  const rows = await em.find(AccountSettingSchema, { userId: { $in: [...userIds] }, property })
  return new Map(rows.map((row) => [row.userId, JSON.parse(row.value) as T]))
}

/** Creates, replaces (one statement, race-free) or, for `undefined`, removes the setting. */
export const writeAccountSetting = async (
  em: EntityManager,
  userId: string,
  property: string,
  value: unknown,
) => {
  if (value === undefined) {
    await em.nativeDelete(AccountSettingSchema, { userId, property })
    return
  }
  const now = new Date()
  await em.upsert(
    AccountSettingSchema,
    {
      id: randomUUID(),
      userId,
      property,
      propertyId: propertyId(property),
      value: JSON.stringify(value),
      created: now,
      modified: now,
    } as AccountSetting,
    { onConflictFields: ['userId', 'property'], onConflictMergeFields: ['value', 'modified'] },
  )
}

/** An organisation setting as passbolt answers it: the value with its row's identity and dates. */
export interface OrganizationSettingRow<T> {
  id: string
  value: T
  created: string | null
  modified: string | null
  created_by: string | null
  modified_by: string | null
}

export const readOrganizationSettingRow = async <T>(
  em: EntityManager,
  property: string,
): Promise<OrganizationSettingRow<T> | undefined> => {
  const row = await em.findOne(OrganizationSettingSchema, { property }, { refresh: true })
  if (!row) return undefined
  return {
    id: row.id,
    value: row.value as T,
    created: formatDate(row.created),
    modified: formatDate(row.modified),
    created_by: row.createdBy ?? null,
    modified_by: row.modifiedBy ?? null,
  }
}

/** Removes the setting, so its default applies again; says whether there was one. */
export const deleteOrganizationSetting = async (em: EntityManager, property: string) =>
  (await em.nativeDelete(OrganizationSettingSchema, { property })) > 0

/** A user's settings rows as passbolt answers them (`/account/settings.json`). */
export const readAccountSettingRows = async (
  em: EntityManager,
  userId: string,
  properties: readonly string[],
) => {
  const rows = await em.find(
    AccountSettingSchema,
    { userId, property: { $in: [...properties] } },
    { orderBy: { property: 'asc' } },
  )
  return rows.map((row) => ({
    id: row.id,
    user_id: row.userId,
    property: row.property,
    value: JSON.parse(row.value) as unknown,
    created: formatDate(row.created),
    modified: formatDate(row.modified),
  }))
}
