// Routes of the folders plugin: list, view, create, rename, delete and share folders, and move
// resources and folders in the caller's tree.
import { z } from 'zod'
import { notFound } from '../../api/errors.ts'
import { defineRoute, type HandlerInput, Reply } from '../../api/plugin.ts'
import type { ParsedQuery } from '../../api/query.ts'
import { noBody } from '../../api/response-schemas.ts'
import {
  canAccess,
  OWNER,
  permissionChanges,
  READ,
  shareSimulationResponse,
  UPDATE,
} from '../permissions/index.ts'
import { folderContain } from './contains.ts'
import { messages } from './messages.ts'
import { type FolderFilters, SORTABLE, selectFolders } from './query.ts'
import { folderResponse } from './response.ts'
import { folderJson } from './serialize.ts'
import { createFolder, deleteFolder, moveItem, shareFolder, updateFolder } from './service.ts'

const idParams = z.object({ id: z.uuid({ error: messages.invalidId }) })

const folderAccess = (level: typeof READ | typeof UPDATE | typeof OWNER, forbidden: string) =>
  canAccess({ aco: 'Folder', param: 'id', level, model: 'folder', forbidden, lock: 'folders' })

const filtersOf = (query: ParsedQuery): FolderFilters => ({
  ids: query.filter['has-id'] as string[] | undefined,
  parents: query.filter['has-parent'] as (string | null)[] | undefined,
  search: (query.filter.search as string[] | undefined)?.[0],
})

/** One folder as the caller sees it, with the contains the request asked for. */
const readOne = async (
  {
    em,
    user,
    query,
  }: Pick<HandlerInput<unknown, unknown, unknown, 'user'>, 'em' | 'user' | 'query'>,
  id: string,
) => {
  const { rows } = await selectFolders(
    em,
    user.id,
    { ...query, page: 1, limit: null },
    { ids: [id] },
  )
  if (rows.length === 0) throw notFound('folder')
  return folderJson(rows[0])
}

const folderBody = z.object({
  name: z.string().max(256).nullable().optional(),
  metadata: z.string().max(200_000).nullable().optional(),
  metadata_key_id: z.uuid().nullable().optional(),
  metadata_key_type: z.enum(['user_key', 'shared_key']).nullable().optional(),
  folder_parent_id: z.uuid().nullable().optional(),
})

const filters = {
  'has-id': 'uuids',
  'has-parent': 'parent',
  search: 'search',
} as const

const moveBody = z.object({
  folder_parent_id: z
    .uuid({
      error: (issue) =>
        issue.input === undefined ? messages.parentRequired : messages.parentInvalid,
    })
    .nullable(),
})

const moveRoutes = (model: 'resource' | 'folder') =>
  (['PUT', 'POST'] as const).map((method) =>
    defineRoute({
      method,
      path: `/move/${model}/{id}.json`,
      action: 'FoldersRelationsMove.move',
      summary: `Move a ${model} in the caller's tree`,
      description: `Puts the ${model} under \`folder_parent_id\` (\`null\`: the root) in the caller’s tree, and in the trees of those who see it in the same place. Moving out of or into a shared folder needs update permission on that folder and on the ${model}; a folder cannot go into itself or its descendants (400 \`cycle\`). 404 when the ${model} is not in the caller’s tree.`,
      auth: 'user',
      // The move checks the caller's levels on the item and both folders itself: which apply
      // depends on whether the folders are personal.
      permission: 'none',
      params: z.object({ id: z.uuid({ error: messages.objectInvalidId }) }),
      body: moveBody,
      transaction: true,
      message: messages.moved,
      response: noBody,
      handler: async ({ em, params, body, user }) => {
        await moveItem(
          em,
          user.id,
          model === 'resource' ? 'Resource' : 'Folder',
          params.id,
          body.folder_parent_id,
        )
        return null
      },
    }),
  )

export const routes = [
  defineRoute({
    method: 'GET',
    path: '/folders.json',
    action: 'FoldersIndex.index',
    summary: 'The folders the caller can read',
    description:
      'Every folder the caller can read, each with its parent in the caller’s tree (`folder_parent_id`), `personal`, and what `contain[...]` asks for (children, creator, modifier, the caller’s permission, all permissions). Filters: `has-id[]`, `has-parent[]` (`0` for the root), `search` (in the name). Paginated.',
    auth: 'user',
    // The list joins what the caller may read: no other row is ever loaded.
    permission: 'none',
    query: { contain: folderContain, filter: filters, paginate: true, sort: Object.keys(SORTABLE) },
    response: z.array(folderResponse),
    handler: async ({ em, user, query }) => {
      const page = await selectFolders(em, user.id, query, filtersOf(query))
      return new Reply(page.rows.map(folderJson), { pagination: page.pagination })
    },
  }),
  defineRoute({
    method: 'GET',
    path: '/folders/{id}.json',
    action: 'FoldersView.view',
    summary: 'One folder',
    description: 'A folder the caller can read, with what `contain[...]` asks for. 404 otherwise.',
    auth: 'user',
    permission: canAccess({
      aco: 'Folder',
      param: 'id',
      level: READ,
      model: 'folder',
      forbidden: messages.cannotUpdate,
    }),
    params: idParams,
    query: { contain: folderContain },
    response: folderResponse,
    handler: (input) => readOne(input, input.params.id),
  }),
  defineRoute({
    method: 'POST',
    path: '/folders.json',
    action: 'FoldersCreate.create',
    summary: 'Create a folder',
    description:
      'Creates a folder named `name` (1 to 256 characters), at the root of the caller’s tree or in `folder_parent_id`, a folder the caller may update. The caller becomes its owner.',
    auth: 'user',
    // Anyone signed in may create a folder; they become its only owner.
    permission: 'none',
    body: folderBody,
    query: { contain: folderContain },
    transaction: true,
    message: messages.added,
    response: folderResponse,
    handler: async (input) =>
      readOne(input, await createFolder(input.em, input.user.id, input.body)),
  }),
  ...(['PUT', 'POST'] as const).map((method) =>
    defineRoute({
      method,
      path: '/folders/{id}.json',
      action: 'FoldersUpdate.update',
      summary: 'Rename a folder',
      description:
        'Renames a folder. Needs update or owner permission: 403 with read only, 404 without access.',
      auth: 'user',
      permission: folderAccess(UPDATE, messages.cannotUpdate),
      params: idParams,
      body: folderBody.omit({ folder_parent_id: true }),
      query: { contain: folderContain },
      transaction: true,
      message: messages.updated,
      response: folderResponse,
      handler: async (input) => {
        await updateFolder(input.em, input.user.id, input.params.id, input.body)
        return readOne(input, input.params.id)
      },
    }),
  ),
  defineRoute({
    method: 'DELETE',
    path: '/folders/{id}.json',
    action: 'FoldersDelete.delete',
    summary: 'Delete a folder',
    description:
      'Deletes a folder; what it held goes to the root of whoever sees it. With `cascade=1`, the folders and resources inside it that the caller may update are deleted too, the others go to the root. Needs update or owner permission on the folder.',
    auth: 'user',
    permission: folderAccess(UPDATE, messages.cannotDelete),
    params: idParams,
    query: { filter: {} },
    transaction: true,
    message: messages.deleted,
    response: noBody,
    handler: async ({ em, params, user, request }) => {
      const cascade = /[?&]cascade=(1|true)(&|$)/i.test(request.url)
      await deleteFolder(em, user.id, params.id, cascade)
      return null
    },
  }),
  ...(['PUT', 'POST'] as const).map((method) =>
    defineRoute({
      method,
      path: '/share/folder/{id}.json',
      action: 'FoldersShare.share',
      summary: 'Share a folder',
      description:
        'Changes the permissions on a folder (add, change, remove, as for resources); the folder then appears in, or leaves, the trees of the users concerned. What it holds keeps its own permissions: the clients share it item by item. Owners only.',
      auth: 'user',
      permission: folderAccess(OWNER, messages.cannotShare),
      params: idParams,
      body: z.object({ permissions: permissionChanges.optional() }),
      validationMessage: messages.validation,
      query: { contain: folderContain },
      transaction: true,
      response: folderResponse,
      handler: async (input) => {
        await shareFolder(
          input.em,
          input.app,
          input.params.id,
          input.body.permissions ?? [],
          input.user.id,
        )
        return readOne(input, input.params.id)
      },
    }),
  ),
  defineRoute({
    method: 'POST',
    path: '/share/simulate/folder/{id}.json',
    action: 'ShareSimulate.simulate',
    summary: 'Simulate sharing a folder',
    description:
      'Checks permission changes on a folder, writes nothing, and answers who would gain and lose access.',
    auth: 'user',
    permission: canAccess({
      aco: 'Folder',
      param: 'id',
      level: OWNER,
      model: 'folder',
      forbidden: messages.cannotShare,
    }),
    params: idParams,
    body: z.object({ permissions: permissionChanges.optional() }),
    validationMessage: messages.validation,
    transaction: true,
    response: shareSimulationResponse,
    handler: async ({ em, app, params, body, user }) => {
      const outcome = await shareFolder(em, app, params.id, body.permissions ?? [], user.id, true)
      return {
        changes: {
          added: outcome.gained.map((id) => ({ User: { id } })),
          removed: outcome.lost.map((id) => ({ User: { id } })),
        },
      }
    },
  }),
  ...moveRoutes('resource'),
  ...moveRoutes('folder'),
]
