// Deleting a user or a group asks every enabled plugin through its deletion hooks: what blocks
// the deletion, then, when nothing does, what it must clean up. The plugin that deletes (users,
// groups) calls these inside its transaction, so the checks and the cleanup see the same rows.
import type { EntityManager } from '@mikro-orm/postgresql'
import { z } from 'zod'
import type { AppContext } from './app.ts'
import type { DeletionSubject, DeletionTransfer } from './plugin.ts'

/** Reasons by domain and rule, as passbolt nests them: `{resources: {sole_owner: [...]}}`. */
export type DeletionBlockers = Record<string, Record<string, unknown[]>>

/** Every plugin's reasons to refuse the deletion, merged; `{}` when nothing blocks it. */
export const deletionBlockers = async (
  em: EntityManager,
  app: AppContext,
  subject: DeletionSubject,
): Promise<DeletionBlockers> => {
  const merged: DeletionBlockers = {}
  for (const plugin of app.plugins) {
    const found = (await plugin.deletion?.blockers?.(em, subject, app)) ?? {}
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
  for (const plugin of [...app.plugins].reverse())
    await plugin.deletion?.cleanup?.(em, subject, app, actorId)
}

/** Every plugin's part of a transfer of ownership asked with the deletion, in plugin order. */
export const transferOnDeletion = async (
  em: EntityManager,
  app: AppContext,
  subject: DeletionSubject,
  transfer: DeletionTransfer,
  actorId: string,
): Promise<void> => {
  for (const plugin of app.plugins)
    await plugin.deletion?.transfer?.(em, subject, transfer, app, actorId)
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
