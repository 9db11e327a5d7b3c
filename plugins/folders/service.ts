// Creating, renaming, deleting and sharing folders, and moving resources and folders in the
// trees. Each runs inside its route's transaction; a move holds the item, the destination and
// the folders above it, so two moves can never build a cycle between them.
import { randomUUID } from 'node:crypto'
import type { EntityManager } from '@mikro-orm/postgresql'
import type { AppContext } from '../../api/app.ts'
import { lockInOrder, lockRows } from '../../api/db/transaction.ts'
import { badRequest, HttpError } from '../../api/errors.ts'
import { executeStatement, selectRows, selectSql } from '../../api/orm.ts'
import {
  ancestorsInTree,
  type ItemModel,
  moveInTrees,
  parentInTree,
  placeItem,
  readersInTrees,
  removeEverywhere,
  wouldCycle,
} from '../folder-tree/index.ts'
import {
  checkItemMetadata,
  metadataTypesSettings,
  payloadIsV5,
  v5Fields,
} from '../metadata/index.ts'
import {
  announceAccessChange,
  applyPermissionChanges,
  effectivePermission,
  grantOwnerToCreator,
  lockGroupsReaching,
  readableBy,
  UPDATE,
} from '../permissions/index.ts'
import { assertCanCreateIn, softDeleteResources } from '../resources/index.ts'
import { messages } from './messages.ts'

const invalid = (errors: Record<string, unknown>) => badRequest(messages.validation, errors)
const invalidMove = (rule: string, message: string) =>
  badRequest(messages.moveValidation, { folder_parent_id: { [rule]: message } })

export interface FolderInput {
  name?: string | null
  metadata?: string | null
  metadata_key_id?: string | null
  metadata_key_type?: string | null
  folder_parent_id?: string | null
}

/**
 * The columns of a v4 or v5 folder payload, within the organisation's metadata settings: 400
 * on a mix, a missing name or a missing piece, and for v5 metadata not encrypted to the key it
 * names. `current` is the folder being updated (its version decides upgrades and downgrades).
 */
const folderFields = async (
  em: EntityManager,
  userId: string,
  input: FolderInput,
  current?: { metadata: string | null },
) => {
  const settings = await metadataTypesSettings(em)
  const touches = [input.name, input.metadata, input.metadata_key_id, input.metadata_key_type].some(
    (value) => value !== undefined,
  )
  if (current && !touches) return {}
  const wasV5 = current ? current.metadata !== null : undefined
  if (payloadIsV5(input)) {
    const fields = v5Fields(input, [input.name])
    if (!settings.allow_creation_of_v5_folders) throw badRequest(messages.v5Refused)
    if (wasV5 === false && !settings.allow_v4_v5_upgrade) throw badRequest(messages.upgradeRefused)
    fields.metadata_key_id = await checkItemMetadata(em, fields, { userId }, messages.validation)
    return { ...fields, name: null }
  }
  if (!current && !settings.allow_creation_of_v4_folders) throw badRequest(messages.v4Refused)
  if (wasV5 === true && !settings.allow_v5_v4_downgrade) throw badRequest(messages.downgradeRefused)
  if (input.name === undefined || input.name === null) {
    if (!current || wasV5) throw invalid({ name: { _required: messages.nameRequired } })
    return {}
  }
  if (!input.name) throw invalid({ name: { _empty: messages.nameEmpty } })
  return { name: input.name, metadata: null, metadata_key_id: null, metadata_key_type: null }
}

export const createFolder = async (em: EntityManager, userId: string, input: FolderInput) => {
  const fields = await folderFields(em, userId, input)
  const parentId = input.folder_parent_id ?? null
  if (parentId) await assertCanCreateIn(em, userId, parentId, messages.validation)
  const id = randomUUID()
  const now = new Date()
  await executeStatement(em, (knex) =>
    knex('folders').insert({
      id,
      ...fields,
      created: now,
      modified: now,
      created_by: userId,
      modified_by: userId,
    }),
  )
  await grantOwnerToCreator(em, 'Folder', id, userId, now)
  await placeItem(em, { model: 'Folder', id }, userId, parentId)
  return id
}

export const updateFolder = async (
  em: EntityManager,
  userId: string,
  id: string,
  input: FolderInput,
) => {
  const [current] = await selectRows<{ metadata: string | null; metadata_key_type: string | null }>(
    em,
    (knex) => knex('folders').where({ id }).select('metadata', 'metadata_key_type'),
  )
  const fields = await folderFields(em, userId, input, current)
  if (fields.metadata_key_type === 'user_key' && (await readersInTrees(em, id)) > 1)
    throw invalid({
      metadata_key_type: { isMetadataKeyTypeSharedOnSharedItem: messages.personalShared },
    })
  await executeStatement(em, (knex) =>
    knex('folders')
      .where({ id })
      .update({ ...fields, modified: new Date(), modified_by: userId }),
  )
}

/** The folders and resources under a folder in the user's tree, at any depth. */
const descendantsInTree = (em: EntityManager, userId: string, folderId: string) =>
  selectSql<{ id: string; model: ItemModel }>(
    em,
    `with recursive down(id, model, depth) as (
       select fr.foreign_id, fr.foreign_model, 1 from folders_relations fr
       where fr.user_id = :user and fr.folder_parent_id = :folder
       union all
       select fr.foreign_id, fr.foreign_model, down.depth + 1 from down
       join folders_relations fr on fr.user_id = :user and fr.folder_parent_id = down.id
       where down.model = 'Folder' and down.depth < 10000)
     select distinct id, model from down`,
    { user: userId, folder: folderId },
  )

/** Hard-deletes folders: their permissions, their places in every tree (content to the root). */
export const deleteFolders = async (em: EntityManager, ids: string[]) => {
  if (ids.length === 0) return
  await executeStatement(em, (knex) =>
    knex('permissions').where('aco', 'Folder').whereIn('aco_foreign_key', ids).delete(),
  )
  await removeEverywhere(em, ids)
  await executeStatement(em, (knex) => knex('folders').whereIn('id', ids).delete())
}

/**
 * Deletes a folder; what it held goes to the root of whoever sees it. With `cascade`, what the
 * caller may delete inside it (update permission or more) is deleted too.
 */
export const deleteFolder = async (
  em: EntityManager,
  userId: string,
  id: string,
  cascade: boolean,
) => {
  const folders = [id]
  if (cascade) {
    const inside = await descendantsInTree(em, userId, id)
    const levels: { aco_foreign_key: string; permission_type: number }[] = []
    for (const aco of ['Folder', 'Resource'] as const)
      levels.push(
        ...(await selectRows<{ aco_foreign_key: string; permission_type: number }>(em, (knex) =>
          readableBy(knex, userId, aco).whereIn(
            'permissions.aco_foreign_key',
            inside.map((item) => item.id),
          ),
        )),
      )
    const deletable = new Set(
      levels
        .filter((row) => Number(row.permission_type) >= UPDATE)
        .map((row) => row.aco_foreign_key),
    )
    folders.push(
      ...inside
        .filter((item) => item.model === 'Folder' && deletable.has(item.id))
        .map((i) => i.id),
    )
    await softDeleteResources(
      em,
      inside.filter((item) => item.model === 'Resource' && deletable.has(item.id)).map((i) => i.id),
      userId,
    )
  }
  await deleteFolders(em, folders)
}

/** A folder's permissions changed like a resource's; its content keeps its own permissions. */
export const shareFolder = async (
  em: EntityManager,
  app: AppContext,
  id: string,
  changes: unknown,
  actorId: string,
  dryRun = false,
) => {
  const [folder] = await selectRows<{ metadata_key_type: string | null }>(em, (knex) =>
    knex('folders').where({ id }).select('metadata_key_type'),
  )
  // Metadata encrypted to one user's key cannot be read by anyone they would share it with.
  if (folder?.metadata_key_type === 'user_key') throw badRequest(messages.cannotShareUserKey)
  const outcome = await applyPermissionChanges(em, {
    aco: 'Folder',
    acoId: id,
    changes,
    actorId,
    dryRun,
  })
  if (outcome.errors) throw invalid({ permissions: outcome.errors })
  if (!dryRun)
    await announceAccessChange(em, app, {
      aco: 'Folder',
      id,
      gained: outcome.gained,
      lost: outcome.lost,
    })
  return outcome
}

/**
 * Locks what a move relies on: the item (and, shared, the groups reaching it, as a share or an
 * update of the item does), the destination and every folder above it in the caller's tree. Two
 * moves that together would close a cycle each hold a folder the other moves, so the second
 * waits for the first and then sees its result. The chain is read again once held, and what
 * joined it meanwhile is locked too.
 */
const lockMove = async (
  em: EntityManager,
  userId: string,
  model: ItemModel,
  id: string,
  parentId: string | null,
) => {
  const chain = parentId ? await ancestorsInTree(em, userId, parentId) : []
  await lockInOrder(em, [
    { table: model === 'Folder' ? 'folders' : 'resources', ids: [id] },
    { table: 'folders', ids: chain },
  ])
  await lockGroupsReaching(em, model, [id])
  const held = new Set(chain)
  for (let missing = chain; parentId && missing.length > 0; ) {
    missing = (await ancestorsInTree(em, userId, parentId)).filter((folder) => !held.has(folder))
    for (const folder of missing) held.add(folder)
    await lockRows(em, 'folders', missing)
  }
}

const canUpdate = async (em: EntityManager, userId: string, model: ItemModel, id: string) =>
  ((await effectivePermission(em, userId, model, id)) ?? 0) >= UPDATE

/** Moves an item in the caller's tree (and in the trees of those who share its place). */
export const moveItem = async (
  em: EntityManager,
  userId: string,
  model: ItemModel,
  id: string,
  parentId: string | null,
) => {
  await lockMove(em, userId, model, id, parentId)
  const item = await parentInTree(em, userId, id)
  if (!item || item.model !== model) throw new HttpError(404, messages.objectNotFound)
  if (parentId) {
    const parent = await parentInTree(em, userId, parentId)
    if (parent?.model !== 'Folder') throw invalidMove('folder_exists', messages.parentNotFound)
  }
  const oldParent = item.parent
  if (oldParent && (await readersInTrees(em, oldParent)) > 1) {
    if (!(await canUpdate(em, userId, 'Folder', oldParent)))
      throw invalidMove('has_folder_access', messages.cannotMoveOut)
    if (!(await canUpdate(em, userId, model, id)))
      throw invalidMove('has_access', messages.cannotMoveItem)
  }
  if (parentId && (await readersInTrees(em, parentId)) > 1) {
    if (!(await canUpdate(em, userId, 'Folder', parentId)))
      throw invalidMove('has_folder_access', messages.cannotMoveIn)
    if (!(await canUpdate(em, userId, model, id)))
      throw invalidMove('has_access', messages.cannotMoveItem)
  }
  if (model === 'Folder' && parentId && (await wouldCycle(em, userId, id, parentId)))
    throw invalidMove('cycle', messages.cycle)
  await moveInTrees(em, { model, id }, userId, oldParent, parentId)
}
