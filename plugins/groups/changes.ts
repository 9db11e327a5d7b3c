// The membership changes a group update sends, checked for form and sorted as passbolt sorts
// them: add `{user_id, is_admin}`, change the role `{id, is_admin}`, remove `{id, delete}`;
// rows of no known shape are ignored. And the secrets sent along for the users added.
import { badRequest } from '../../api/errors.ts'
import { isUuid } from '../../api/uuid.ts'
import { ErrorTree } from '../../api/validation.ts'
import { messages } from './messages.ts'
import { MAX_ROWS, toBoolean } from './rules.ts'

export type Change =
  | { kind: 'add'; index: number; userId: string; isAdmin: unknown }
  | { kind: 'role'; index: number; id: string; isAdmin: boolean }
  | { kind: 'remove'; index: number; id: string }

const isSet = (value: unknown) => value !== undefined && value !== null

const lower = (value: unknown) => (value as string).toLowerCase()

/** The changes in request order; 400 with passbolt's tree when a row is malformed. */
export const parseChanges = (raw: unknown): Change[] => {
  if (!isSet(raw)) return []
  if (!Array.isArray(raw) || raw.length > MAX_ROWS)
    throw badRequest(messages.validation, {
      groups_users: { array: messages.groupsUsersArray },
    })
  const errors = new ErrorTree()
  const changes: Change[] = []
  for (const [index, value] of raw.entries()) {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) {
      errors.add(['groups_users', index], 'array', messages.groupsUsersArray)
      continue
    }
    const row = value as Record<string, unknown>
    const fail = (field: string, rule: string, message: string) =>
      errors.add(['groups_users', index, field], rule, message)
    if (isSet(row.id) && !isUuid(row.id)) fail('id', 'uuid', messages.idUuid)
    if (isSet(row.user_id) && !isUuid(row.user_id)) fail('user_id', 'uuid', messages.userIdUuid)
    if (isSet(row.delete) && toBoolean(row.delete) === undefined)
      fail('delete', 'boolean', messages.changeBoolean)
    if (isSet(row.is_admin) && toBoolean(row.is_admin) === undefined)
      fail('is_admin', 'boolean', messages.changeBoolean)
    if (!errors.empty) continue
    if (!isSet(row.id) && isSet(row.user_id) && !isSet(row.delete))
      changes.push({ kind: 'add', index, userId: lower(row.user_id), isAdmin: row.is_admin })
    else if (isSet(row.id) && !isSet(row.user_id) && isSet(row.is_admin) && !isSet(row.delete))
      changes.push({ kind: 'role', index, id: lower(row.id), isAdmin: toBoolean(row.is_admin)! })
    // `delete: false` asks for nothing (passbolt would remove the member all the same).
    else if (isSet(row.id) && !isSet(row.user_id) && !isSet(row.is_admin) && toBoolean(row.delete))
      changes.push({ kind: 'remove', index, id: lower(row.id) })
  }
  if (!errors.empty) throw badRequest(messages.validation, errors.tree)
  return changes
}

export interface SecretEntry {
  index: number
  resourceId: string
  userId: string
  data: string
}

/** Most secrets one update may carry: a thousand passwords for each of a hundred new members. */
export const MAX_SECRETS = 100_000

/** The secrets' form; errors go to `errors` under `secrets.{index}`. */
export const parseSecrets = (raw: unknown, errors: ErrorTree): SecretEntry[] => {
  if (!isSet(raw)) return []
  if (!Array.isArray(raw) || raw.length > MAX_SECRETS) {
    errors.add(['secrets'], 'array', messages.secretsArray)
    return []
  }
  const entries: SecretEntry[] = []
  for (const [index, value] of raw.entries()) {
    const row = (typeof value === 'object' && value !== null ? value : {}) as Record<
      string,
      unknown
    >
    const fail = (field: string, rule: string, message: string) =>
      errors.add(['secrets', index, field], rule, message)
    let valid = true
    if (!isSet(row.resource_id)) {
      fail('resource_id', '_required', messages.secretResourceRequired)
      valid = false
    } else if (!isUuid(row.resource_id)) {
      fail('resource_id', 'uuid', messages.secretResourceUuid)
      valid = false
    }
    if (!isSet(row.user_id)) {
      fail('user_id', '_required', messages.userIdRequired)
      valid = false
    } else if (!isUuid(row.user_id)) {
      fail('user_id', 'uuid', messages.userIdUuid)
      valid = false
    }
    if (!isSet(row.data)) {
      fail('data', '_required', messages.secretRequired)
      valid = false
    } else if (typeof row.data !== 'string' || row.data === '') {
      fail('data', '_empty', messages.secretEmpty)
      valid = false
    }
    if (valid)
      entries.push({
        index,
        resourceId: lower(row.resource_id),
        userId: lower(row.user_id),
        data: row.data as string,
      })
  }
  return entries
}
