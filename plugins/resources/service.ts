// Creating, updating and deleting resources: the v4/v5 rules, the organisation's metadata
// settings, the owner's permission and secret on creation, one secret per user with access on
// update, and a soft delete that takes the permissions, secrets and favorites with it. Each
// runs inside the route's transaction, on the resource's lock for changes.
import { randomUUID } from 'node:crypto'
import type { EntityManager } from '@mikro-orm/postgresql'
import { badRequest } from '../../api/errors.ts'
import { messageRecipients, publicKeyIds, WILDCARD_KEY_ID } from '../../api/openpgp-packets.ts'
import { executeStatement, selectRows } from '../../api/orm.ts'
import { deleteCommentsOf } from '../comments/index.ts'
import { deleteFavoritesOf } from '../favorites/index.ts'
import { parentInTree, placeItem, removeEverywhere } from '../folder-tree/index.ts'
import { metadataKeysSettings, metadataTypesSettings } from '../metadata/index.ts'
import {
  effectivePermission,
  grantOwnerToCreator,
  UPDATE,
  usersWithAccess,
} from '../permissions/index.ts'
import {
  DEFAULT_V4_TYPE_ID,
  liveResourceTypes,
  PASSWORD_AND_DESCRIPTION_TYPE_ID,
  versionOfSlug,
} from '../resource-types/index.ts'
import { checkSecretEntries, deleteSecretsOfResources, writeSecrets } from '../secrets/index.ts'
import { deleteTagsOfResources } from '../tags/index.ts'
import { messages } from './messages.ts'
import type { CreateBody, MetadataFields, UpdateBody } from './schemas.ts'

type Tree = Record<string, unknown>

const invalid = (errors: Tree) => badRequest(messages.validation, errors)

/** v5 when encrypted metadata comes with the payload. */
const payloadIsV5 = (body: { metadata?: string | null }) =>
  body.metadata !== undefined && body.metadata !== null

/** The metadata columns of a v4 or v5 payload; 400 on a mix or a missing piece. */
const metadataFields = (body: CreateBody | UpdateBody, v5: boolean): Partial<MetadataFields> => {
  if (!v5)
    return {
      ...(body.name !== undefined ? { name: body.name } : {}),
      ...(body.username !== undefined ? { username: body.username } : {}),
      ...(body.uri !== undefined ? { uri: body.uri } : {}),
      ...(body.description !== undefined ? { description: body.description } : {}),
    }
  if (
    [body.name, body.username, body.uri, body.description].some(
      (v) => v !== undefined && v !== null,
    )
  )
    throw badRequest(messages.v4FieldsInV5)
  if (!body.metadata_key_type) throw badRequest(messages.fewV5Fields)
  return {
    metadata: body.metadata!,
    metadata_key_id: body.metadata_key_id ?? null,
    metadata_key_type: body.metadata_key_type,
  }
}

/**
 * Checks v5 metadata: encrypted to exactly one recipient, a key of the one it names: the
 * user's own key (`user_key`, filled in when not given) or a live metadata key (`shared_key`).
 * Returns the key id to store.
 */
const checkEncryptedMetadata = async (
  em: EntityManager,
  userId: string,
  fields: Partial<MetadataFields>,
): Promise<string> => {
  let keyId = fields.metadata_key_id ?? null
  let armoredKey: string
  if (fields.metadata_key_type === 'user_key') {
    if (!(await metadataKeysSettings(em)).allow_usage_of_personal_keys)
      throw badRequest(messages.personalKeysRefused)
    const [key] = await selectRows<{ id: string; armored_key: string }>(em, (knex) =>
      knex('gpgkeys').where({ user_id: userId, deleted: false }).select('id', 'armored_key'),
    )
    if (!key || (keyId && keyId !== key.id))
      throw invalid({ metadata_key_id: { metadata_key_exists: messages.metadataKeyExists } })
    keyId = key.id
    armoredKey = key.armored_key
  } else {
    if (!keyId) throw badRequest(messages.fewV5Fields)
    const [key] = await selectRows<{ armored_key: string; expired: string | null }>(em, (knex) =>
      knex('metadata_keys')
        .where({ id: keyId })
        .whereNull('deleted')
        .select('armored_key', 'expired'),
    )
    if (!key)
      throw invalid({ metadata_key_id: { metadata_key_exists: messages.metadataKeyExists } })
    if (key.expired)
      throw invalid({ metadata_key_id: { isMetadataKeyNotExpired: messages.metadataKeyExpired } })
    armoredKey = key.armored_key
  }
  let recipients: string[]
  let keyIds: string[]
  try {
    recipients = messageRecipients(fields.metadata!)
    keyIds = publicKeyIds(armoredKey)
  } catch {
    throw invalid({
      metadata: { isValidEncryptedResourceMetadata: messages.metadataUndecryptable },
    })
  }
  if (
    recipients.length !== 1 ||
    !(recipients[0] === WILDCARD_KEY_ID || keyIds.includes(recipients[0]))
  )
    throw invalid({
      metadata: { isValidEncryptedResourceMetadata: messages.metadataUndecryptable },
    })
  return keyId
}

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
