// Routes of the users plugin: the user directory (list and view), editing a user (profile,
// avatar, role, suspension) and deleting one. Creating users is the setup plugin's (it sends the
// invitation).
import { z } from 'zod'
import { JsonDocument, JsonRowStream, JsonRows } from '../../api/envelope.ts'
import { badRequest, forbidden, HttpError } from '../../api/errors.ts'
import { type AccessPolicy, type ContainSpec, defineRoute, Reply } from '../../api/plugin.ts'
import { isUuid } from '../../api/uuid.ts'
import { forgetAccountState } from './account-state.ts'
import { deleteUser } from './delete.ts'
import { listUsers, SORTABLE, streamUsers, viewUser, viewUserText } from './directory.ts'
import { checkEditRequest, editUser } from './edit.ts'
import { userDirectory } from './extensions.ts'
import { messages } from './messages.ts'
import { deleteBody, editBody, userJson } from './schemas.ts'

const userIdOrMe = z.union([z.literal('me'), z.uuid({ error: messages.invalidIdOrMe })], {
  error: messages.invalidIdOrMe,
})
// Checked by the access policies, after the caller's rights, as passbolt orders its refusals.
const userId = z.object({ id: z.string() })

const requireUuid = (id: string) => {
  if (!isUuid(id)) throw badRequest(messages.invalidId)
}

/** A contain another plugin fills (e.g. `is_mfa_enabled` by the MFA plugin). */
const fromPlugins = (name: string, fallback: () => unknown): ContainSpec => ({
  load: async (rows, context) => {
    for (const row of rows) row[name] = fallback()
    for (const hooks of userDirectory.of(context.app.plugins)) {
      const load = hooks.contains?.[name]
      if (load) await load(rows, context)
    }
  },
})

/**
 * What a user answer may carry. The four relations come from the directory's own query; the
 * account recovery contains are accepted and answer nothing (account recovery is not offered).
 */
const userContain = {
  profile: { default: true },
  gpgkey: { default: true },
  role: { default: true },
  groups_users: { default: true },
  last_logged_in: {},
  is_mfa_enabled: fromPlugins('is_mfa_enabled', () => false),
  // Every user has every metadata key until metadata keys exist.
  missing_metadata_key_ids: fromPlugins('missing_metadata_key_ids', () => []),
  pending_account_recovery_request: {},
  account_recovery_user_setting: {},
} satisfies Record<string, ContainSpec>

/** The loaders of the contains asked for that other plugins fill. */
const loadersFor = (contain: Record<string, boolean>) =>
  (Object.entries(userContain) as [string, ContainSpec][]).flatMap(([name, spec]) =>
    spec.load && contain[name] ? [spec.load] : [],
  )

/** Administrators only, refused with passbolt's words for the users routes. */
const administrators: AccessPolicy<undefined, { id: string }> = {
  description: 'administrators only',
  refusals: [403],
  refusalMessages: { 403: messages.notAuthorized },
  check: async ({ user, params }) => {
    if (user.role !== 'admin') throw forbidden(messages.notAuthorized)
    requireUuid(params.id)
    return undefined
  },
}

/**
 * Oneself, or anyone for administrators; the fields sent are checked before the body is
 * validated, as passbolt refuses them (a key or groups never, a role only from administrators).
 */
const editPolicy: AccessPolicy<undefined, { id: string }> = {
  description: 'the user themselves, or an administrator',
  refusals: [403],
  refusalMessages: { 403: messages.notAuthorized },
  check: async ({ user, params, rawBody }) => {
    if (user.role !== 'admin' && params.id !== user.id) throw forbidden(messages.notAuthorized)
    requireUuid(params.id)
    checkEditRequest(user, params.id, rawBody)
    return undefined
  },
}

const editRoute = (method: 'PUT' | 'POST') =>
  defineRoute({
    method,
    path: '/users/{id}.json',
    action: 'UsersEdit.editPost',
    summary: method === 'PUT' ? 'Edit a user' : 'Edit a user (form post, as avatar uploads send)',
    description:
      "A user edits their own first and last name and avatar (`profile.avatar.file`, a JPEG, PNG or WebP sent as multipart/form-data, resized to 200×200 and 80×80); administrators also edit others' and change `role_id` and `disabled` (never their own suspension). The username never changes. Refused: another user's account by a non-administrator (403), the role by a non-administrator (403), `gpgkey` or `groups_users` (400), an invalid image (400 keyed by `profile.avatar.file`), a change leaving no active administrator (400 `lastAdmin`). Answers the user as the directory shows them.",
    auth: 'user',
    permission: editPolicy,
    params: userId,
    query: { contain: userContain },
    body: editBody,
    validationMessage: messages.userValidation,
    multipart: (app) => ({ maxFileSize: app.config.avatarMaxSize }),
    transaction: true,
    response: userJson,
    message: messages.updated,
    handler: async ({ params, body, user, em, app, query }) => {
      await editUser(em, app, user, params.id, body)
      forgetAccountState(app, params.id)
      const view = await viewUser(em, app, { user: user, id: params.id, ...query })
      if (!view) throw new HttpError(400, messages.editNotFound)
      return view
    },
  })

export const routes = [
  defineRoute({
    method: 'GET',
    path: '/users.json',
    action: 'UsersIndex.index',
    summary: 'The user directory',
    description:
      'Users the caller may see: no guests and no deleted users; non-administrators see active users only. Filters: `search` (username, first or last name), `has-groups` (members of every group listed), `has-access` (users who can read that resource, directly or through a group; the caller must read it too, else 403), `is-admin`, `is-active` (administrators only). Ordered by username unless `order` says otherwise; one statement for the whole page, contains included.',
    auth: 'user',
    // Visibility is part of the query (inactive users only for administrators).
    permission: 'none',
    query: {
      contain: userContain,
      filter: {
        search: 'search',
        'has-groups': 'uuids',
        'has-access': 'uuids',
        'is-admin': 'boolean',
        'is-active': 'boolean',
      },
      sort: Object.keys(SORTABLE),
      paginate: true,
    },
    response: z.array(userJson),
    handler: async ({ user, em, app, query }) => {
      const loaders = loadersFor(query.contain)
      // PostgreSQL's JSON goes out as is, streamed as it is read when it is whole.
      if (loaders.length === 0) {
        const { documents, pagination } = await streamUsers(em, app, { user, ...query })
        return new Reply(new JsonRowStream(documents), { pagination })
      }
      // What other plugins add (`is_mfa_enabled`...) is loaded on bare rows and spliced into
      // each document, which is never parsed.
      const page = await listUsers(em, app, { user: user, ...query })
      const added = page.ids.map((id) => ({ id }) as Record<string, unknown>)
      const context = { em, user, app, contain: query.contain }
      for (const load of loaders) await load(added, context)
      const documents = page.documents.map((document, index) => {
        const { id: _id, ...fields } = added[index]
        return `${document.slice(0, -1)},${JSON.stringify(fields).slice(1)}`
      })
      return new Reply(new JsonRows(documents), { pagination: page.pagination })
    },
  }),
  defineRoute({
    method: 'GET',
    path: '/users/{id}.json',
    action: 'UsersView.view',
    summary: 'A user, or the caller with "me"; viewing also keeps a cookie session alive',
    description:
      'The user as the directory shows them (404 for a user the caller may not see: deleted, a guest, or inactive for non-administrators), with the same contains as the list.',
    auth: 'user',
    // Visibility (active users for non-administrators) is applied by the query.
    permission: 'none',
    params: z.object({ id: userIdOrMe }),
    query: { contain: userContain },
    response: userJson,
    handler: async ({ params, user, em, app, query }) => {
      const id = params.id === 'me' ? user.id : params.id
      const view = await viewUserText(em, app, { user: user, id, ...query }, { kept: true })
      if (view === undefined) throw new HttpError(404, messages.notFound)
      // Sent as PostgreSQL wrote it, unless other plugins add contains to it.
      return loadersFor(query.contain).length > 0 ? JSON.parse(view) : new JsonDocument(view)
    },
  }),
  editRoute('PUT'),
  editRoute('POST'),
  defineRoute({
    method: 'DELETE',
    path: '/users/{id}/dry-run.json',
    action: 'UsersDelete.dryrun',
    summary: 'Check whether a user can be deleted',
    description:
      'Answers whether deleting the user would be refused, with the same refusals as the deletion, and changes nothing.',
    auth: 'user',
    permission: administrators,
    params: userId,
    transaction: true,
    message: messages.canBeDeleted,
    response: z.null(),
    handler: async ({ params, user, em, app }) => {
      // As passbolt's dry run: the transfer is only applied by the deletion itself.
      await deleteUser(em, app, user, params.id, { dryRun: true })
      return null
    },
  }),
  defineRoute({
    method: 'DELETE',
    path: '/users/{id}.json',
    action: 'UsersDelete.delete',
    summary: 'Delete a user',
    description:
      'Soft-deletes the user and removes their permissions, secrets, group memberships, favorites, folder places and tags, in one transaction; items only they could reach go with them. Refused (400, items listed under `errors`, by domain and rule) while they alone own shared resources or folders, or alone manage a group with other members, unless `transfer.owners` (permissions to make owner) and `transfer.managers` (memberships to make manager) hand exactly those over. Also refused: deleting oneself (400), the last active administrator (400), an unknown or deleted user (404), a non-administrator caller (403).',
    auth: 'user',
    permission: administrators,
    params: userId,
    body: deleteBody,
    transaction: true,
    message: messages.deleted,
    response: z.null(),
    handler: async ({ params, body, user, em, app }) => {
      await deleteUser(em, app, user, params.id, {
        dryRun: false,
        transfer: body?.transfer,
      })
      forgetAccountState(app, params.id)
      return null
    },
  }),
]
