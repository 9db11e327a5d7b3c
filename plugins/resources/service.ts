// Creating, updating and deleting resources: the v4/v5 rules, the organisation's metadata
// settings, the owner's permission and secret on creation, one secret per user with access on
// update, and a soft delete that takes the permissions, secrets and favorites with it. Each
// runs inside the route's transaction, on the resource's lock for changes.
import { randomUUID } from 'node:crypto'
import type { EntityManager } from '@mikro-orm/postgresql'
import { badRequest } from '../../api/errors.ts'
import { executeStatement, selectRows } from '../../api/orm.ts'
import { deleteCommentsOf } from '../comments/index.ts'
import { deleteFavoritesOf } from '../favorites/index.ts'
import { parentInTree, placeItem, removeEverywhere } from '../folder-tree/index.ts'
import {
  checkItemMetadata,
  type ItemMetadata,
  metadataTypesSettings,
  payloadIsV5,
  v5Fields,
} from '../metadata/index.ts'
import {
  effectivePermission,
  grantOwnerToCreator,
  lockGroupsReaching,
  UPDATE,
  usersWithAccess,
} from '../permissions/index.ts'
import {
  DEFAULT_V4_TYPE_ID,
  liveResourceTypes,
  PASSWORD_AND_DESCRIPTION_TYPE_ID,
  versionOfSlug,
} from '../resource-types/index.ts'
import {
  checkSecretEntries,
  deleteSecretsExcept,
  deleteSecretsOfResources,
  writeSecrets,
} from '../secrets/index.ts'
import { deleteTagsOfResources } from '../tags/index.ts'
import { messages } from './messages.ts'
import type { CreateBody, MetadataFields, UpdateBody } from './schemas.ts'

type Tree = Record<string, unknown>

const invalid = (errors: Tree) => badRequest(messages.validation, errors)

/** The metadata columns of a v4 or v5 payload; 400 on a mix or a missing piece. */
const metadataFields = (body: CreateBody | UpdateBody, v5: boolean): Partial<MetadataFields> => {
  if (!v5)
    return {
      ...(body.name !== undefined ? { name: body.name } : {}),
      ...(body.username !== undefined ? { username: body.username } : {}),
      ...(body.uri !== undefined ? { uri: body.uri } : {}),
      ...(body.description !== undefined ? { description: body.description } : {}),
    }
  return v5Fields(body, [body.name, body.username, body.uri, body.description])
}

/** v5 metadata checked against the key it names; the key id to store. */
const checkEncryptedMetadata = (
  em: EntityManager,
  userId: string,
  fields: Partial<MetadataFields>,
): Promise<string> => checkItemMetadata(em, fields as ItemMetadata, { userId }, messages.validation)

/** The type's slug, checked against the payload's version (and creation rules). */
const checkResourceType = async (
  em: EntityManager,
  typeId: string,
  v5: boolean,
  creating: boolean,
) => {
  const slug = (await liveResourceTypes(em)).get(typeId)
  if (!slug) throw invalid({ resource_type_id: { resource_type_exists: messages.typeExists } })
  if (versionOfSlug(slug) !== (v5 ? 'v5' : 'v4'))
    throw invalid({
      resource_type_id: { isValidResourceType: v5 ? messages.typeV5 : messages.typeV4 },
    })
  if (creating && slug === 'v5-password-string')
    throw invalid({ resource_type_id: { isNotV5PasswordString: messages.typeV5PasswordString } })
  return slug
}

const checkOwnSecret = async (em: EntityManager, userId: string, data: string) => {
  const { errors, entries } = await checkSecretEntries(em, [{ user_id: userId, data }])
  // The user id is the caller's own: only the message can be at fault.
  if (errors) throw invalid({ secrets: errors })
  return entries
}

export const createResource = async (
  em: EntityManager,
  userId: string,
  body: CreateBody,
): Promise<string> => {
  const v5 = payloadIsV5(body)
  const settings = await metadataTypesSettings(em)
  if (v5 && !settings.allow_creation_of_v5_resources) throw badRequest(messages.v5CreationRefused)
  if (!v5 && !settings.allow_creation_of_v4_resources) throw badRequest(messages.v4CreationRefused)
  const fields = metadataFields(body, v5)
  if (!v5 && !fields.name)
    throw invalid({
      name:
        fields.name === undefined
          ? { _required: 'A name is required.' }
          : { _empty: 'The name should not be empty.' },
    })
  const parentId = body.folder_parent_id ?? null
  if (parentId) await assertCanCreateIn(em, userId, parentId)
  const typeId = body.resource_type_id ?? DEFAULT_V4_TYPE_ID
  await checkResourceType(em, typeId, v5, true)
  if (typeId === PASSWORD_AND_DESCRIPTION_TYPE_ID && fields.description) fields.description = null
  if (v5) fields.metadata_key_id = await checkEncryptedMetadata(em, userId, fields)
  const secrets = await checkOwnSecret(em, userId, body.secrets[0].data)
  const id = randomUUID()
  const now = new Date()
  await executeStatement(em, (knex) =>
    knex('resources').insert({
      id,
      ...fields,
      resource_type_id: typeId,
      expired: body.expired ?? null,
      deleted: false,
      created: now,
      modified: now,
      created_by: userId,
      modified_by: userId,
    }),
  )
  await grantOwnerToCreator(em, 'Resource', id, userId, now)
  await writeSecrets(em, id, secrets, userId)
  await placeItem(em, { model: 'Resource', id }, userId, parentId)
  return id
}

/**
 * Content goes into a folder its creator sees and may update (passbolt's rule); the refusal
 * carries the validation message of what is being created (`Could not validate … data.`).
 */
export const assertCanCreateIn = async (
  em: EntityManager,
  userId: string,
  parentId: string,
  validationMessage: string = messages.validation,
) => {
  const inTree = await parentInTree(em, userId, parentId)
  if (inTree?.model !== 'Folder')
    throw badRequest(validationMessage, {
      folder_parent_id: { folder_exists: messages.folderParentExists },
    })
  const level = await effectivePermission(em, userId, 'Folder', parentId)
  if ((level ?? 0) < UPDATE)
    throw badRequest(validationMessage, {
      folder_parent_id: { has_folder_access: messages.parentReadOnly },
    })
}

export const updateResource = async (
  em: EntityManager,
  userId: string,
  id: string,
  body: UpdateBody,
) => {
  // Who can read the resource is read once its groups are held: a membership change of one of
  // them runs wholly before or after this update, never between the reading and the writing.
  await lockGroupsReaching(em, 'Resource', [id])
  const [current] = await selectRows<{ metadata: string | null; resource_type_id: string }>(
    em,
    (knex) => knex('resources').where({ id }).select('metadata', 'resource_type_id'),
  )
  const wasV5 = current.metadata !== null
  const touchesMetadata = [
    'name',
    'username',
    'uri',
    'description',
    'metadata',
    'metadata_key_id',
    'metadata_key_type',
  ].some((field) => body[field as keyof UpdateBody] !== undefined)
  const v5 = touchesMetadata ? payloadIsV5(body) : wasV5
  const settings = await metadataTypesSettings(em)
  if (v5 && !wasV5 && !settings.allow_v4_v5_upgrade) throw badRequest(messages.upgradeRefused)
  if (!v5 && wasV5 && !settings.allow_v5_v4_downgrade) throw badRequest(messages.downgradeRefused)
  if (v5 && touchesMetadata && !settings.allow_creation_of_v5_resources)
    throw badRequest(messages.v5CreationRefused)
  const fields: Partial<MetadataFields> = touchesMetadata ? metadataFields(body, v5) : {}
  if (!v5 && fields.name !== undefined && !fields.name)
    throw invalid({ name: { _empty: 'The name should not be empty.' } })
  if (v5 !== wasV5)
    Object.assign(
      fields,
      v5
        ? { name: null, username: null, uri: null, description: null }
        : { metadata: null, metadata_key_id: null, metadata_key_type: null },
    )
  const typeId = body.resource_type_id ?? current.resource_type_id
  if (body.resource_type_id !== undefined || v5 !== wasV5)
    await checkResourceType(em, typeId, v5, false)
  if (body.resource_type_id === PASSWORD_AND_DESCRIPTION_TYPE_ID && fields.description)
    fields.description = null
  if (v5 && fields.metadata)
    fields.metadata_key_id = await checkEncryptedMetadata(em, userId, fields)
  const users = await usersWithAccess(em, 'Resource', id)
  if (v5 && fields.metadata_key_type === 'user_key') {
    const [{ count, users: userPermissions }] = await selectRows<{ count: string; users: string }>(
      em,
      (knex) =>
        knex('permissions')
          .where({ aco_foreign_key: id })
          .select(
            knex.raw('count(*) as count'),
            knex.raw("count(*) filter (where aro = 'User') as users"),
          ),
    )
    if (Number(count) !== 1 || Number(userPermissions) !== 1)
      throw invalid({
        metadata_key_type: { isMetadataKeyTypeSharedOnSharedItem: messages.personalShared },
      })
  }
  if (body.secrets) {
    const { errors, entries } = await checkSecretEntries(em, body.secrets)
    if (errors) throw invalid({ secrets: errors })
    const given = new Set(entries.map((entry) => entry.user_id))
    if (
      given.size !== entries.length ||
      given.size !== users.length ||
      users.some((u) => !given.has(u))
    )
      throw invalid({ secrets: { secrets_provided: messages.secretsProvided } })
    await writeSecrets(em, id, entries, userId)
  }
  // Whoever can no longer read the resource keeps no secret of it, however they lost access.
  await deleteSecretsExcept(em, id, users)
  await executeStatement(em, (knex) =>
    knex('resources')
      .where({ id })
      .update({
        ...fields,
        resource_type_id: typeId,
        ...(body.expired !== undefined ? { expired: body.expired } : {}),
        modified: new Date(),
        modified_by: userId,
      }),
  )
}

/**
 * Soft-deletes resources: cleartext fields cleared, permissions, secrets, favorites, tags and
 * comments gone.
 */
export const softDeleteResources = async (em: EntityManager, ids: string[], userId: string) => {
  if (ids.length === 0) return
  // A group gaining a member writes the secrets its resources need: it must not write one of a
  // resource this deletion is taking away.
  await lockGroupsReaching(em, 'Resource', ids)
  await executeStatement(em, (knex) =>
    knex('resources').whereIn('id', ids).update({
      deleted: true,
      username: null,
      uri: null,
      description: null,
      modified: new Date(),
      modified_by: userId,
    }),
  )
  await executeStatement(em, (knex) =>
    knex('permissions').where('aco', 'Resource').whereIn('aco_foreign_key', ids).delete(),
  )
  await deleteSecretsOfResources(em, ids)
  await deleteFavoritesOf(em, ids)
  await removeEverywhere(em, ids)
  await deleteTagsOfResources(em, ids)
  await deleteCommentsOf(em, ids)
}
