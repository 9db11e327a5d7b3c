// Routes of the roles plugin: the roles users can have, and the custom roles administrators add,
// rename and delete.
import { z } from 'zod'
import { badRequest } from '../../api/errors.ts'
import { defineRoute } from '../../api/plugin.ts'
import { isUuid } from '../../api/uuid.ts'
import { messages } from './messages.ts'
import { MAXIMUM_ROLES, roleBody, roleSchema } from './schemas.ts'
import { createRole, deleteRole, listRoles, renameRole } from './service.ts'

const roleId = (id: string) => {
  if (!isUuid(id)) throw badRequest(messages.invalidId)
  return id
}

export const routes = [
  defineRoute({
    method: 'GET',
    path: '/roles.json',
    action: 'RolesIndex.index',
    summary: 'List the roles',
    description:
      'The live roles (`admin`, `user`, `guest` and the custom roles), by name. Administrators may also ask for the deleted ones (`filter[is-deleted]=1`) and for each role’s live users (`contain[user_count]=1`); other users get the plain list whatever they ask.',
    auth: 'user',
    // The roles are the same for everyone; the extra options are checked for administrators.
    permission: 'none',
    query: { contain: { user_count: {} }, filter: { 'is-deleted': 'boolean' } },
    response: z.array(roleSchema),
    handler: ({ em, app, user, query }) => {
      const admin = user.role === 'admin'
      return listRoles(em, app, {
        deleted: admin && query.filter['is-deleted'] === true,
        userCount: admin && Boolean(query.contain.user_count),
      })
    },
  }),
  defineRoute({
    method: 'POST',
    path: '/roles.json',
    action: 'RolesAdd.add',
    summary: 'Add a custom role',
    description: `A role named \`name\` (trimmed, 1 to 50 characters, not a built-in name, unique among live roles whatever the case), which starts with the UI rights of \`user\`. 400 beyond ${MAXIMUM_ROLES} live roles.`,
    auth: 'admin',
    // Administrators only, which `auth` already requires.
    permission: 'none',
    body: roleBody,
    validationMessage: messages.notSaved,
    response: roleSchema,
    transaction: true,
    message: messages.added,
    handler: ({ em, app, user, body }) => createRole(em, app, body.name, user.id),
  }),
  ...(['PUT', 'POST'] as const).map((method) =>
    defineRoute({
      method,
      path: '/roles/{id}.json',
      action: 'RolesUpdate.update',
      summary: 'Rename a custom role',
      description:
        'Gives a custom role a new `name`, under the rules of a new one. 400 for a built-in role or an id that is not a UUID, 404 for an unknown or deleted role.',
      auth: 'admin',
      // Administrators only, which `auth` already requires.
      permission: 'none',
      params: z.object({ id: z.string() }),
      body: roleBody,
      validationMessage: messages.notUpdated,
      response: roleSchema,
      transaction: true,
      message: messages.updated,
      handler: ({ em, user, params, body }) =>
        renameRole(em, roleId(params.id), body.name, user.id),
    }),
  ),
  defineRoute({
    method: 'DELETE',
    path: '/roles/{id}.json',
    action: 'RolesDelete.delete',
    summary: 'Delete a custom role',
    description:
      'Deletes a custom role no live user has (400 `hasNoActiveUserAssociatedRule` otherwise), with its UI rights. 400 for a built-in role or an id that is not a UUID, 404 for an unknown or deleted role.',
    auth: 'admin',
    // Administrators only, which `auth` already requires.
    permission: 'none',
    params: z.object({ id: z.string() }),
    response: z.null(),
    transaction: true,
    message: messages.deleted,
    handler: async ({ em, app, user, params }) => {
      await deleteRole(em, app, roleId(params.id), user.id)
      return null
    },
  }),
]
