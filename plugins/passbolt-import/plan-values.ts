// How passbolt's MariaDB values become Keyward's PostgreSQL ones, and which rows PostgreSQL would
// refuse outright; shared by every part of the plan.
import type { SourceRow, SourceTable } from './source.ts'

export type TargetRow = Record<string, unknown>

export interface Skipped {
  table: SourceTable
  id: string
  reason: string
}

export const str = (value: unknown): string | null =>
  value === null || value === undefined ? null : String(value)
/** An author column; passbolt leaves some empty where PostgreSQL needs null. */
export const ref = (value: unknown): string | null => (value === '' ? null : str(value))
export const bool = (value: unknown): boolean => value === true || value === 1 || value === '1'
export const date = (value: unknown): Date | null =>
  value === null || value === undefined ? null : new Date(value as string | Date)

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i
const AUTHOR = /^(created_by|modified_by)$/
const REFERENCE =
  /^(id|user_id|role_id|group_id|resource_id|resource_type_id|aco_foreign_key|aro_foreign_key|foreign_id|foreign_key|folder_parent_id|metadata_key_id|secret_revision_id|parent_id|tag_id|profile_id|created_by|modified_by)$/

/**
 * Why PostgreSQL would refuse the row, if it would: MariaDB stores any text in a char(36) id
 * and U+0000 in text, PostgreSQL neither. Found first, so that what depends on the row is left
 * behind with it instead of failing the whole transaction.
 */
export const unstorable = (row: SourceRow): string | undefined => {
  for (const [column, value] of Object.entries(row)) {
    if (typeof value !== 'string') continue
    if (value.includes('\u0000')) return `${column} holds a NUL character`
    if (REFERENCE.test(column) && !UUID.test(value) && !(value === '' && AUTHOR.test(column)))
      return `${column} is not a UUID`
  }
  return undefined
}

/** A JSON object stored as text, or undefined when the text is not one. */
export const jsonObject = (value: unknown): Record<string, unknown> | undefined => {
  try {
    const parsed: unknown = JSON.parse(String(value))
    return parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed)
      ? (parsed as Record<string, unknown>)
      : undefined
  } catch {
    return undefined
  }
}
