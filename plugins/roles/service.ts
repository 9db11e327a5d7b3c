// Roles through the ORM: the live roles (or the deleted ones), and the custom roles
// administrators add, rename and delete, with passbolt's limits.
import type { EntityManager } from '@mikro-orm/postgresql'
import type { AppContext } from '../../api/app.ts'
import { lockRows } from '../../api/db/transaction.ts'
import { formatDate } from '../../api/envelope.ts'
import { HttpError } from '../../api/errors.ts'
import { selectRows } from '../../api/orm.ts'
import { type Role, RoleSchema } from './entities/Role.ts'
import { roleHooks } from './hooks.ts'
import { messages } from './messages.ts'
import { MAXIMUM_ROLES, RESERVED_ROLE_NAMES } from './schemas.ts'

const roleJson = (role: Role) => ({
  id: role.id,
  name: role.name,
  description: role.description || null,
  created: formatDate(role.created)!,
  modified: formatDate(role.modified)!,
  created_by: role.createdBy ?? null,
  modified_by: role.modifiedBy ?? null,
  deleted: formatDate(role.deleted),
})

/** How many live accounts hold each role, as the plugins holding accounts count them. */
const holdersOf = async (em: EntityManager, app: AppContext, roleIds: readonly string[]) => {
  const total = new Map<string, number>()
  for (const hooks of roleHooks.get(app))
    for (const [id, count] of (await hooks.holders?.(em, roleIds)) ?? [])
      total.set(id, (total.get(id) ?? 0) + count)
  return total
}

/** Every role's id, name, description and dates, for the plugins that show a user's role. */
export const roleSummaries = (em: EntityManager) =>
  selectRows<{ id: string; name: string; description: string; created: string; modified: string }>(
    em,
    (knex) => knex('roles').select('id', 'name', 'description', 'created', 'modified'),
  )

/** The live roles by name, or the deleted ones; `userCount` adds each role's live users. */
export const listRoles = async (
  em: EntityManager,
  app: AppContext,
  options: { deleted?: boolean; userCount?: boolean } = {},
) => {
  const roles = await em.find(
    RoleSchema,
    { deleted: options.deleted ? { $ne: null } : null },
    { orderBy: { name: 'asc' } },
  )
  const answer = roles.map(roleJson)
  if (!options.userCount || roles.length === 0) return answer
  const byRole = await holdersOf(
    em,
    app,
    roles.map((role) => role.id),
  )
  return answer.map((role) => ({ ...role, user_count: byRole.get(role.id) ?? 0 }))
}

export const countRoles = (em: EntityManager) => em.count(RoleSchema, { deleted: null })

const invalid = (message: string, field: string, rule: string, text: string) =>
  new HttpError(400, message, { [field]: { [rule]: text } })

/** 400 when another live role has this name, whatever its case. */
const assertNameFree = async (em: EntityManager, name: string, except?: string) => {
  const [taken] = await selectRows<{ id: string }>(em, (knex) =>
    knex('roles')
      .whereNull('deleted')
      .whereRaw('lower(name) = lower(?)', [name])
      .modify((query) => {
        if (except) query.whereNot('id', except)
      })
      .select('id')
      .limit(1),
  )
  if (taken) throw invalid(messages.notSaved, 'name', 'unique', messages.nameTaken)
}

/** Every live role locked, so that concurrent additions and renames see each other. */
const lockLiveRoles = async (em: EntityManager) => {
  const live = await em.find(RoleSchema, { deleted: null }, { fields: ['id'] })
  await lockRows(
    em,
    'roles',
    live.map((role) => role.id),
  )
  return live.length
}

export const createRole = async (
  em: EntityManager,
  app: AppContext,
  name: string,
  actorId: string,
) => {
  const live = await lockLiveRoles(em)
  if (live >= MAXIMUM_ROLES)
    throw invalid(
      messages.notSaved,
      'name',
      'maximumNumberOfRolesAllowed',
      messages.maximum(MAXIMUM_ROLES),
    )
  await assertNameFree(em, name)
  const role = em.create(RoleSchema, {
    name,
    description: '',
    createdBy: actorId,
    modifiedBy: actorId,
  } as Role)
  await em.flush()
  for (const hooks of roleHooks.get(app)) await hooks.created?.(em, role, actorId)
  return roleJson(role)
}

/** A live custom role, its row locked: 404 for an unknown or deleted one. */
const lockCustomRole = async (em: EntityManager, id: string, reservedMessage: string) => {
  await lockRows(em, 'roles', [id])
  const role = await em.findOne(RoleSchema, { id, deleted: null }, { refresh: true })
  if (!role) throw new HttpError(404, messages.notFound)
  if ((RESERVED_ROLE_NAMES as readonly string[]).includes(role.name))
    throw new HttpError(400, reservedMessage, { name: { isReservedRole: messages.reservedDelete } })
  return role
}

export const renameRole = async (em: EntityManager, id: string, name: string, actorId: string) => {
  await lockLiveRoles(em)
  const role = await lockCustomRole(em, id, messages.notUpdated)
  await assertNameFree(em, name, id)
  role.name = name
  role.modifiedBy = actorId
  await em.flush()
  return roleJson(role)
}

/** Soft-deletes a custom role nobody has any more; its UI rights go with it. */
export const deleteRole = async (
  em: EntityManager,
  app: AppContext,
  id: string,
  actorId: string,
) => {
  const role = await lockCustomRole(em, id, messages.notDeleted)
  // Users are given a role under a lock on it, so none can join while this one goes.
  if (((await holdersOf(em, app, [id])).get(id) ?? 0) > 0)
    throw invalid(messages.notDeleted, 'id', 'hasNoActiveUserAssociatedRule', messages.inUse)
  role.deleted = new Date()
  role.deletedBy = actorId
  role.modifiedBy = actorId
  await em.flush()
  for (const hooks of roleHooks.get(app)) await hooks.deleted?.(em, role)
}
