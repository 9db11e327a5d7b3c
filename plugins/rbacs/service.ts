// UI rights through the ORM: each role's rights, their changes by administrators, the rights a
// new role starts with, and the check the server makes before a controlled route runs.
import type { EntityManager } from '@mikro-orm/postgresql'
import { formatDate } from '../../api/envelope.ts'
import { HttpError } from '../../api/errors.ts'
import { selectRows } from '../../api/orm.ts'
import { type Rbac, RbacSchema } from './entities/Rbac.ts'
import { type UiAction, UiActionSchema } from './entities/UiAction.ts'
import { messages } from './messages.ts'
import type { RbacJson, UpdateBody } from './schemas.ts'
import { ALLOW, type ControlFunction, DENY, UI_ACTIONS } from './ui-actions.ts'

const uiActionJson = (action: UiAction) => ({
  id: action.id,
  name: action.name,
  created: formatDate(action.created)!,
  modified: formatDate(action.modified)!,
})

export const listUiActions = async (em: EntityManager) =>
  (await em.find(UiActionSchema, {}, { orderBy: { name: 'asc' } })).map((action) => ({
    ...uiActionJson(action),
    allowed_control_functions: [...(UI_ACTIONS[action.name] ?? [ALLOW, DENY])],
  }))

const rbacJson = (rbac: Rbac): RbacJson => ({
  id: rbac.id,
  role_id: rbac.roleId,
  foreign_model: rbac.foreignModel as RbacJson['foreign_model'],
  foreign_id: rbac.foreignId,
  control_function: rbac.controlFunction as ControlFunction,
  created: formatDate(rbac.created)!,
  modified: formatDate(rbac.modified)!,
  created_by: rbac.createdBy ?? null,
  modified_by: rbac.modifiedBy ?? null,
})

/** Every role's rights, or those of the roles named (the caller's own). */
export const listRbacs = async (em: EntityManager, roleIds?: readonly string[]) =>
  (
    await em.find(RbacSchema, roleIds ? { roleId: { $in: [...roleIds] } } : {}, {
      orderBy: { roleId: 'asc', foreignId: 'asc' },
    })
  ).map(rbacJson)

/** `contain[ui_action]`: the UI action of each right, one query for all. */
export const loadUiActions = async (em: EntityManager, rows: RbacJson[]) => {
  const ids = rows.filter((row) => row.foreign_model === 'UiAction').map((row) => row.foreign_id)
  if (ids.length === 0) return
  const actions = await em.find(UiActionSchema, { id: { $in: ids } })
  const byId = new Map(actions.map((action) => [action.id, uiActionJson(action)]))
  for (const row of rows) {
    const action = byId.get(row.foreign_id)
    if (action) row.ui_action = action
  }
}

/**
 * Changes control functions by right id, all or none: 404 when an id is unknown, 400 when a
 * function is not one the UI action accepts.
 */
export const updateRbacs = async (em: EntityManager, actorId: string, body: UpdateBody) => {
  const ids = body.map((entry) => entry.id)
  const rbacs = await em.find(RbacSchema, { id: { $in: ids } })
  if (rbacs.length === 0) throw new HttpError(404, messages.noneFound)
  if (rbacs.length !== ids.length) throw new HttpError(404, messages.someNotFound)
  const actions = await em.find(UiActionSchema, {
    id: { $in: rbacs.map((rbac) => rbac.foreignId) },
  })
  const nameOf = new Map(actions.map((action) => [action.id, action.name]))
  const byId = new Map(rbacs.map((rbac) => [rbac.id, rbac]))
  body.forEach((entry, index) => {
    const rbac = byId.get(entry.id)!
    const allowed = UI_ACTIONS[nameOf.get(rbac.foreignId) ?? ''] ?? []
    if (!(allowed as readonly string[]).includes(entry.control_function))
      throw new HttpError(400, messages.notAllowed, {
        [index]: { control_function: { isControlFunctionAllowed: messages.functionNotAllowed } },
      })
    if (rbac.controlFunction !== entry.control_function) {
      rbac.controlFunction = entry.control_function
      rbac.modifiedBy = actorId
    }
  })
  await em.flush()
  return listRbacsById(em, ids)
}

const listRbacsById = async (em: EntityManager, ids: readonly string[]) =>
  (await em.find(RbacSchema, { id: { $in: [...ids] } }, { orderBy: { foreignId: 'asc' } })).map(
    rbacJson,
  )

/** A new role starts with the rights `user` has. */
export const copyUserRights = async (em: EntityManager, roleId: string, actorId: string) => {
  const rows = await selectRows<{
    foreign_model: string
    foreign_id: string
    control_function: string
  }>(em, (knex) =>
    knex('rbacs')
      .join('roles', 'roles.id', 'rbacs.role_id')
      .where('roles.name', 'user')
      .select('rbacs.foreign_model', 'rbacs.foreign_id', 'rbacs.control_function'),
  )
  for (const row of rows)
    em.create(RbacSchema, {
      roleId,
      foreignModel: row.foreign_model,
      foreignId: row.foreign_id,
      controlFunction: row.control_function,
      createdBy: actorId,
      modifiedBy: actorId,
    } as Rbac)
  await em.flush()
}

export const forgetRights = (em: EntityManager, roleId: string) =>
  em.nativeDelete(RbacSchema, { roleId })

/** Whether the role (by name) is denied this UI action; administrators never are. */
export const isDenied = async (em: EntityManager, roleName: string, uiAction: string) => {
  if (roleName === 'admin') return false
  const [row] = await selectRows<{ control_function: string }>(em, (knex) =>
    knex('rbacs')
      .join('roles', 'roles.id', 'rbacs.role_id')
      .join('ui_actions', 'ui_actions.id', 'rbacs.foreign_id')
      .where({ 'roles.name': roleName, 'ui_actions.name': uiAction })
      .whereNull('roles.deleted')
      .select('rbacs.control_function')
      .limit(1),
  )
  return row?.control_function === DENY
}

/** The rights of the role with this name (the caller's); none for an unknown role. */
export const listRbacsOfRole = async (em: EntityManager, roleName: string) => {
  const [role] = await selectRows<{ id: string }>(em, (knex) =>
    knex('roles').where('name', roleName).whereNull('deleted').select('id').limit(1),
  )
  return role ? listRbacs(em, [role.id]) : []
}
