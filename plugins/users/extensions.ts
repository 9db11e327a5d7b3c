// What other plugins add to the users' domain, declared in their `extensions`: the filters and
// contains of the user directory, and their part in deleting a user or a group (every plugin
// that holds rows for a group sits below the groups plugin, so group deletions use this point
// too). The users and groups plugins call them inside the deletion's transaction.
import type { EntityManager, Knex } from '@mikro-orm/postgresql'
import { z } from 'zod'
import type { AppContext } from '../../api/app.ts'
import type { AuthUser } from '../../api/auth/user.ts'
import { type ContainContext, extensionPoint } from '../../api/plugin.ts'

/**
 * A plugin's part in the user directory (`GET /users.json`, `GET /users/{id}.json`), as
 * passbolt's plugins extend its users index: the users plugin declares the filter or contain
 * and asks every plugin that provides it.
 */
export interface UserDirectoryHooks {
  /**
   * Narrows the users query for a filter (e.g. `has-access`), inside the list's one statement;
   * may first check the caller may use it (and throw the refusal).
   */
  filters?: Record<
    string,
    (input: {
      query: Knex.QueryBuilder
      knex: Knex
      value: unknown
      user: AuthUser
      em: EntityManager
    }) => Promise<void>
  >
  /** Fills a contain (e.g. `is_mfa_enabled`) on every user row, with one query for all. */
  contains?: Record<
    string,
    (rows: ({ id: string } & Record<string, unknown>)[], context: ContainContext) => Promise<void>
  >
}

/** A user or a group being deleted. */
export interface DeletionSubject {
  kind: 'User' | 'Group'
  id: string
}

/**
 * passbolt's `transfer` in a deletion request: permissions (by id, with their item) to make
 * owner, group memberships (by id, with their group) to make manager.
 */
export interface DeletionTransfer {
  owners?: { id: string; aco_foreign_key: string }[]
  managers?: { id: string; group_id: string }[]
}

/**
 * A plugin's part in deleting a user or a group: what blocks it and what it cleans up. The
 * plugin that deletes calls every plugin's hooks inside its transaction: first all `blockers`
 * (merged, the deletion is refused when any is non-empty), then every `cleanup` in reverse
 * plugin order (so a plugin cleans up before the plugins it depends on).
 */
export interface DeletionHooks {
  /**
   * Reasons the deletion must not happen, nested as passbolt nests them in its error body, e.g.
   * `{resources: {sole_owner: [...]}}` or `{groups: {sole_manager: [...]}}`; `{}` for none.
   */
  blockers?: (
    em: EntityManager,
    subject: DeletionSubject,
    app: AppContext,
  ) => Promise<Record<string, Record<string, unknown[]>>>
  /**
   * Hands over what the subject alone holds, as the deletion request asks, before the blockers
   * are checked; throws (400) when the transfer does not match what blocks the deletion.
   */
  transfer?: (
    em: EntityManager,
    subject: DeletionSubject,
    transfer: DeletionTransfer,
    app: AppContext,
    actorId: string,
  ) => Promise<void>
  /** Removes or reassigns what the plugin holds for the subject; `actorId` is who deletes. */
  cleanup?: (
    em: EntityManager,
    subject: DeletionSubject,
    app: AppContext,
    actorId?: string,
  ) => Promise<void>
}

export const userDirectory = extensionPoint<UserDirectoryHooks>('users.directory')
export const userDeletion = extensionPoint<DeletionHooks>('users.deletion')

/** What a plugin does once a user's setup is committed (key stored, account active). */
export interface ActivationHooks {
  /** Runs in a transaction of its own: a failure is logged and does not undo the setup. */
  activated: (input: { em: EntityManager; userId: string }, app: AppContext) => Promise<void>
}

export const userActivation = extensionPoint<ActivationHooks>('users.activation')

/** Reasons by domain and rule, as passbolt nests them: `{resources: {sole_owner: [...]}}`. */
export type DeletionBlockers = Record<string, Record<string, unknown[]>>

/** Every plugin's reasons to refuse the deletion, merged; `{}` when nothing blocks it. */
export const deletionBlockers = async (
  em: EntityManager,
  app: AppContext,
  subject: DeletionSubject,
): Promise<DeletionBlockers> => {
  const merged: DeletionBlockers = {}
  for (const hooks of userDeletion.of(app.plugins)) {
    const found = (await hooks.blockers?.(em, subject, app)) ?? {}
    for (const [domain, rules] of Object.entries(found)) {
      for (const [rule, items] of Object.entries(rules)) {
        if (items.length === 0) continue
        merged[domain] ??= {}
        const into = merged[domain]
        into[rule] = [...(into[rule] ?? []), ...items]
      }
    }
  }
  return merged
}

export const hasBlockers = (blockers: DeletionBlockers): boolean =>
  Object.values(blockers).some((rules) => Object.values(rules).some((items) => items.length > 0))

/**
 * Every plugin's cleanup, in reverse plugin order: a plugin removes what it holds before the
 * plugins it depends on remove what its rows point to.
 */
export const cleanUpDeletion = async (
  em: EntityManager,
  app: AppContext,
  subject: DeletionSubject,
  actorId: string,
): Promise<void> => {
  for (const hooks of userDeletion.of(app.plugins).reverse())
    await hooks.cleanup?.(em, subject, app, actorId)
}

/** Every plugin's part of a transfer of ownership asked with the deletion, in plugin order. */
export const transferOnDeletion = async (
  em: EntityManager,
  app: AppContext,
  subject: DeletionSubject,
  transfer: DeletionTransfer,
  actorId: string,
): Promise<void> => {
  for (const hooks of userDeletion.of(app.plugins))
    await hooks.transfer?.(em, subject, transfer, app, actorId)
}

/** passbolt's `transfer` of a deletion request, as the users and groups deletions accept it. */
export const deletionTransferSchema = z
  .object({
    owners: z
      .array(z.object({ id: z.string(), aco_foreign_key: z.string() }).loose())
      .max(10_000)
      .optional(),
    managers: z
      .array(z.object({ id: z.string(), group_id: z.string() }).loose())
      .max(10_000)
      .optional(),
  })
  .optional()
