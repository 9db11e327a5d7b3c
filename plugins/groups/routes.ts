// Routes of the groups plugin: list and view groups, create them (administrators), change
// their name and members, and delete them, with the dry runs the clients call first.
import { z } from 'zod'
import { badRequest, HttpError } from '../../api/errors.ts'
import { defineRoute, type HandlerInput } from '../../api/plugin.ts'
import type { ParsedQuery } from '../../api/query.ts'
import { isUuid } from '../../api/uuid.ts'
import { createGroup } from './create.ts'
import { deleteGroup, deleteGroupDryRun } from './delete.ts'
import { messages } from './messages.ts'
import { adminOrManager } from './policies.ts'
import { type GroupContain, SORTABLE, selectGroup, selectGroups } from './query.ts'
import { createBody, deleteBody, dryRunResponse, groupResponse, updateBody } from './schemas.ts'
import { updateGroup, updateGroupDryRun } from './update.ts'

/**
 * The id is checked by the policy or the handler, which answer passbolt's own message with an
 * empty body (a schema failure would answer the generic one with an error tree).
 */
const idParams = z.object({ id: z.string().max(64) })

const assertId = (id: string, message: string) => {
  if (!isUuid(id)) throw badRequest(message)
}

/** Each contain with its legacy singular spelling (`group_user…`, `user`), still sent. */
const CANONICAL = [
  ['modifier', []],
  ['modifier.profile', ['modifier']],
  ['my_group_user', []],
  ['user_count', []],
  ['users', []],
  ['groups_users', []],
  ['groups_users.user', ['groups_users']],
  ['groups_users.user.profile', ['groups_users.user', 'groups_users']],
  ['groups_users.user.gpgkey', ['groups_users.user', 'groups_users']],
] as const

const LEGACY: Record<string, string> = {
  user: 'users',
  group_user: 'groups_users',
  'group_user.user': 'groups_users.user',
  'group_user.user.profile': 'groups_users.user.profile',
  'group_user.user.gpgkey': 'groups_users.user.gpgkey',
}

const groupContain = Object.fromEntries([
  ...CANONICAL.map(([name, requires]) => [name, { requires }]),
  ...Object.entries(LEGACY).map(([legacy, name]) => {
    const [, requires] = CANONICAL.find(([canonical]) => canonical === name)!
    return [legacy, { requires: [name, ...requires] }]
  }),
])

const containOf = (query: ParsedQuery): GroupContain =>
  Object.fromEntries(CANONICAL.map(([name]) => [name, Boolean(query.contain[name])]))

const viewOf = async (
  { em, user, app }: Pick<HandlerInput<unknown, unknown, unknown, 'user'>, 'em' | 'user' | 'app'>,
  id: string,
  contain: GroupContain,
) => {
  const group = await selectGroup(em, id, {
    contain,
    callerId: user.id,
    appUrl: app.config.appUrl,
  })
  if (!group) throw new HttpError(404, messages.notFound)
  return group
}

const updateRoutes = (dryRun: boolean) =>
  (['PUT', 'POST'] as const).map((method) =>
    defineRoute({
      method,
      path: dryRun ? '/groups/{id}/dry-run.json' : '/groups/{id}.json',
      action: dryRun ? 'GroupsUpdate.dryRun' : 'GroupsUpdate.update',
      summary: dryRun ? 'Simulate a group update' : 'Update a group',
      description: dryRun
        ? 'Checks the membership changes as the update would and answers what the client must encrypt: `dry-run.SecretsNeeded` (`{Secret: {resource_id, user_id}}` for every password an added member cannot read yet) and `dry-run.Secrets` (the caller’s own secrets of those passwords, `{Secret: [{resource_id, data}]}`). Only managers add members, so for others both lists are empty.'
        : 'Administrators may rename the group (`name`, unique among live groups); managers may add members (`groups_users: [{user_id, is_admin}]`, with `secrets: [{resource_id, user_id, data}]`: exactly one message per password the new member cannot read yet, encrypted for them); administrators and managers change roles (`{id, is_admin}`) and remove members (`{id, delete: true}`), the group keeping a manager. Removed members lose the secrets of what they no longer reach. All or nothing; concurrent updates of one group wait for each other. Answers the group with its members and their profiles.',
      auth: 'user',
      permission: adminOrManager({
        invalid: messages.invalidId,
        missing: messages.notFound,
        lock: !dryRun,
      }),
      params: idParams,
      body: updateBody,
      validationMessage: messages.validation,
      transaction: !dryRun,
      response: dryRun ? dryRunResponse : groupResponse,
      handler: async (input) => {
        const caller = { id: input.user.id, ...input.granted }
        if (dryRun) return updateGroupDryRun(input.em, input.params.id, input.body, caller)
        await updateGroup(input.em, input.app, input.params.id, input.body, caller)
        return viewOf(input, input.params.id, {
          groups_users: true,
          'groups_users.user': true,
          'groups_users.user.profile': true,
        })
      },
    }),
  )

export const routes = [
  defineRoute({
    method: 'GET',
    path: '/groups.json',
    action: 'GroupsIndex.index',
    summary: 'The groups',
    description:
      'Every live group, sorted by name. Filters: `has-users[]` and `has-managers[]` keep the groups holding all the users given (as managers). Contains: `my_group_user` (the caller’s membership or null), `user_count`, `groups_users` with `.user`, `.user.profile`, `.user.gpgkey`, `users`, `modifier` and `modifier.profile`; the legacy singular names (`group_user…`, `user`) are accepted.',
    auth: 'user',
    // Every signed-in user may see every group, as in passbolt.
    permission: 'none',
    query: {
      contain: groupContain,
      filter: { 'has-users': 'uuids', 'has-managers': 'uuids' },
      sort: Object.keys(SORTABLE),
    },
    response: z.array(groupResponse),
    handler: ({ em, user, query, app }) =>
      selectGroups(em, {
        filters: {
          users: query.filter['has-users'] as string[] | undefined,
          managers: query.filter['has-managers'] as string[] | undefined,
        },
        contain: containOf(query),
        order: query.order,
        callerId: user.id,
        appUrl: app.config.appUrl,
      }),
  }),
  defineRoute({
    method: 'GET',
    path: '/groups/{id}.json',
    action: 'GroupsView.view',
    summary: 'One group',
    description:
      'A live group with the same contains as the list. 400 for an invalid id, 404 when the group does not exist or is deleted.',
    auth: 'user',
    // Every signed-in user may see every group, as in passbolt.
    permission: 'none',
    params: idParams,
    query: { contain: groupContain },
    response: groupResponse,
    handler: (input) => {
      assertId(input.params.id, messages.invalidId)
      return viewOf(input, input.params.id, containOf(input.query))
    },
  }),
  defineRoute({
    method: 'POST',
    path: '/groups.json',
    action: 'GroupsAdd.addPost',
    summary: 'Create a group',
    description:
      'Administrators only. `name` (1 to 255 characters, unique among live groups) and `groups_users: [{user_id, is_admin}]`: active users, at least one of them a manager. Answers the group with its members (and `my_group_user` when asked). A malformed name or row is refused (400) before the data is checked: a taken name, an unknown or inactive user and a missing manager are reported once the body is valid, as passbolt does.',
    auth: 'admin',
    // Administrators only: `auth` decides.
    permission: 'none',
    body: createBody,
    query: { contain: { my_group_user: {} } },
    validationMessage: messages.validation,
    transaction: true,
    message: messages.added,
    response: groupResponse,
    handler: async (input) => {
      const id = await createGroup(input.em, input.body, input.user.id)
      return viewOf(input, id, {
        groups_users: true,
        my_group_user: Boolean(input.query.contain.my_group_user),
      })
    },
  }),
  ...updateRoutes(false),
  ...updateRoutes(true),
  ...([false, true] as const).map((dryRun) =>
    defineRoute({
      method: 'DELETE',
      path: dryRun ? '/groups/{id}/dry-run.json' : '/groups/{id}.json',
      action: dryRun ? 'GroupsDelete.dryRun' : 'GroupsDelete.delete',
      summary: dryRun ? 'Check that a group can be deleted' : 'Delete a group',
      description: dryRun
        ? 'Answers 400 with the shared resources and folders the group alone owns (`errors.resources.sole_owner`, `errors.folders.sole_owner`) when it cannot be deleted, else success; writes nothing.'
        : 'Administrators and the group’s managers. Refused (400, with the items in `errors`) while the group alone owns shared items, unless `transfer.owners: [{id, aco_foreign_key}]` makes other permissions owners of exactly those items. Otherwise what only the group could reach is deleted, its permissions and memberships go with the secrets members no longer reach, and the group is marked deleted, all at once.',
      auth: 'user',
      permission: adminOrManager({
        invalid: messages.invalidDeleteId,
        missing: messages.deleteNotFound,
        refuseFirst: true,
        lock: !dryRun,
      }),
      params: idParams,
      body: deleteBody,
      transaction: true,
      message: dryRun ? messages.canDelete : messages.deleted,
      response: z.null(),
      handler: async ({ em, app, params, body, user }) => {
        if (dryRun) await deleteGroupDryRun(em, app, params.id)
        else await deleteGroup(em, app, params.id, body ?? {}, user.id)
        return null
      },
    }),
  ),
]
