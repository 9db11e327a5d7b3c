// What the core of the plan learnt (who and what moves, who may read what) and the parts that
// follow it (comments, tags, settings, avatars, UI rights) check their rows against.
import type { TargetReferences } from './plan.ts'
import type { SourceRow, SourceTable } from './source.ts'

export interface PlanContext {
  target: TargetReferences
  skip: (table: SourceTable, row: SourceRow, reason: string) => void
  warnings: string[]
  userIds: ReadonlySet<string>
  deletedUsers: ReadonlySet<string>
  profileIds: ReadonlySet<string>
  resourceIds: ReadonlySet<string>
  /** passbolt role id → Keyward role id. */
  roleIds: ReadonlyMap<string, string>
  /** Whether the user reads the item, directly or through a group. */
  canRead: (userId: string, itemId: string) => boolean
}

/** A row's user is migrated and not deleted; otherwise it is skipped with the reason. */
export const ofLiveUser = (
  context: PlanContext,
  table: SourceTable,
  row: SourceRow,
  column = 'user_id',
) => {
  const userId = String(row[column])
  if (!context.userIds.has(userId)) {
    context.skip(table, row, `${column} ${userId} is not a migrated user`)
    return false
  }
  if (context.deletedUsers.has(userId)) {
    context.skip(table, row, `its user ${userId} is deleted`)
    return false
  }
  return true
}
