// Turns the rows read from passbolt into the rows Keyward stores, and sets aside, with the
// reason, every row that would break Keyward's invariants: nothing is dropped silently and
// nothing broken is written.

import { planAvatars } from './plan-avatars.ts'
import type { PlanContext } from './plan-context.ts'
import { planComments, planRbacs, planTags } from './plan-items.ts'
import {
  planAccountSettings,
  planOrganizationSettings,
  type ServerKeyPair,
} from './plan-settings.ts'
import { bool, date, ref, type Skipped, str, type TargetRow, unstorable } from './plan-values.ts'
import type { SourceData, SourceRow, SourceTable } from './source.ts'

export type { Skipped, TargetRow } from './plan-values.ts'

export interface ImportPlan {
  rows: Record<SourceTable, TargetRow[]>
  skipped: Skipped[]
  /** Imported rows whose state passbolt let slip, for an administrator to repair. */
  warnings: string[]
}

/** What the Keyward target already has and the import refers to instead of copying. */
export interface TargetReferences {
  /** Role id by role name (admin, user, guest…). */
  roles: Map<string, string>
  /** Resource type id by slug. */
  resourceTypes: Map<string, string>
  /** UI action id by name. */
  uiActions: Map<string, string>
}

export interface PlanOptions {
  /** passbolt's server key, which its encrypted settings are for. */
  serverKey: ServerKeyPair
  /** passbolt's avatar cache folder, for pictures the database does not hold. */
  imagesDir?: string
}

export const buildPlan = async (
  all: SourceData,
  target: TargetReferences,
  options: PlanOptions,
): Promise<ImportPlan> => {
  const skipped: Skipped[] = []
  const skip = (table: SourceTable, row: SourceRow, reason: string) =>
    skipped.push({ table, id: String(row.id), reason })
  const source = {} as SourceData
  for (const [table, rows] of Object.entries(all) as [SourceTable, SourceRow[]][])
    source[table] = rows.filter((row) => {
      const reason = unstorable(row)
      if (reason) skip(table, row, reason)
      return !reason
    })
  const rows = {} as Record<SourceTable, TargetRow[]>

  // Roles: Keyward has its own rows for passbolt's built-in roles; custom roles are copied.
  const roleIds = new Map<string, string>()
  rows.roles = []
  for (const role of source.roles) {
    const name = String(role.name)
    const existing = target.roles.get(name)
    if (existing) roleIds.set(String(role.id), existing)
    else {
      roleIds.set(String(role.id), String(role.id))
      rows.roles.push({
        id: role.id,
        name,
        description: str(role.description) ?? '',
        created: date(role.created),
        modified: date(role.modified),
        deleted: date(role.deleted),
        created_by: ref(role.created_by),
        modified_by: ref(role.modified_by),
      })
    }
  }

  const userIds = new Set<string>()
  const deletedUsers = new Set<string>()
  rows.users = []
  for (const user of source.users) {
    const roleId = roleIds.get(String(user.role_id))
    if (!roleId) {
      skip('users', user, `unknown role ${user.role_id}`)
      continue
    }
    userIds.add(String(user.id))
    if (bool(user.deleted)) deletedUsers.add(String(user.id))
    rows.users.push({
      id: user.id,
      role_id: roleId,
      username: user.username,
      active: bool(user.active),
      deleted: bool(user.deleted),
      disabled: date(user.disabled),
      last_logged_in: date(user.last_logged_in),
      created: date(user.created),
      modified: date(user.modified),
      created_by: ref(user.created_by),
      modified_by: ref(user.modified_by),
    })
  }
  const ofKnownUser = (table: SourceTable, row: SourceRow, column = 'user_id') => {
    if (userIds.has(String(row[column]))) return true
    skip(table, row, `${column} ${row[column]} is not a migrated user`)
    return false
  }

  rows.profiles = source.profiles
    .filter((profile) => ofKnownUser('profiles', profile))
    .map((profile) => ({
      id: profile.id,
      user_id: profile.user_id,
      first_name: profile.first_name,
      last_name: profile.last_name,
      created: date(profile.created),
      modified: date(profile.modified),
    }))

  // One live key per fingerprint, as Keyward signs users in by it: the oldest keeps it.
  const liveFingerprints = new Set<string>()
  rows.gpgkeys = []
  const oldestFirst = [...source.gpgkeys].sort(
    (a, b) =>
      (date(a.created)?.getTime() ?? 0) - (date(b.created)?.getTime() ?? 0) ||
      String(a.id).localeCompare(String(b.id)),
  )
  for (const key of oldestFirst) {
    if (!ofKnownUser('gpgkeys', key)) continue
    const fingerprint = String(key.fingerprint).toUpperCase()
    if (!bool(key.deleted)) {
      if (liveFingerprints.has(fingerprint)) {
        skip('gpgkeys', key, `fingerprint ${fingerprint} is already another live key's`)
        continue
      }
      liveFingerprints.add(fingerprint)
    }
    rows.gpgkeys.push({
      id: key.id,
      user_id: key.user_id,
      armored_key: key.armored_key,
      bits: key.bits ?? null,
      uid: key.uid,
      key_id: key.key_id,
      fingerprint,
      type: key.type,
      expires: date(key.expires),
      key_created: date(key.key_created),
      deleted: bool(key.deleted),
      created: date(key.created),
      modified: date(key.modified),
    })
  }

  const groupIds = new Set<string>()
  const deletedGroups = new Set<string>()
  rows.groups = source.groups.map((group) => {
    groupIds.add(String(group.id))
    if (bool(group.deleted)) deletedGroups.add(String(group.id))
    return {
      id: group.id,
      name: group.name,
      deleted: bool(group.deleted),
      created: date(group.created),
      modified: date(group.modified),
      created_by: ref(group.created_by),
      modified_by: ref(group.modified_by),
    }
  })

  const groupsOfUser = new Map<string, Set<string>>()
  rows.groups_users = []
  for (const membership of source.groups_users) {
    if (!ofKnownUser('groups_users', membership)) continue
    if (!groupIds.has(String(membership.group_id))) {
      skip('groups_users', membership, `group ${membership.group_id} does not exist`)
      continue
    }
    const set = groupsOfUser.get(String(membership.user_id)) ?? new Set<string>()
    set.add(String(membership.group_id))
    groupsOfUser.set(String(membership.user_id), set)
    rows.groups_users.push({
      id: membership.id,
      group_id: membership.group_id,
      user_id: membership.user_id,
      is_admin: bool(membership.is_admin),
      created: date(membership.created),
      created_by: ref(membership.created_by),
    })
  }

  // Encrypted metadata: the organisation's keys, each user's copy of their private part (and the
  // server's, user_id null, encrypted to the server key this command also moves), and the
  // session-key caches, which only their user can read.
  const metadataKeyIds = new Set(source.metadata_keys.map((key) => String(key.id)))
  rows.metadata_keys = source.metadata_keys.map((key) => ({
    id: key.id,
    fingerprint: String(key.fingerprint).toUpperCase(),
    armored_key: key.armored_key,
    expired: date(key.expired),
    deleted: date(key.deleted),
    created: date(key.created),
    modified: date(key.modified),
    created_by: ref(key.created_by),
    modified_by: ref(key.modified_by),
  }))
  const activeUser = (table: SourceTable, row: SourceRow) => {
    if (!ofKnownUser(table, row)) return false
    if (!deletedUsers.has(String(row.user_id))) return true
    skip(table, row, `its user ${row.user_id} is deleted`)
    return false
  }
  rows.metadata_private_keys = []
  for (const key of source.metadata_private_keys) {
    if (!metadataKeyIds.has(String(key.metadata_key_id))) {
      skip('metadata_private_keys', key, `its metadata key ${key.metadata_key_id} does not exist`)
      continue
    }
    if (key.user_id !== null && !activeUser('metadata_private_keys', key)) continue
    rows.metadata_private_keys.push({
      id: key.id,
      metadata_key_id: key.metadata_key_id,
      user_id: str(key.user_id),
      data: key.data,
      created: date(key.created),
      modified: date(key.modified),
      created_by: ref(key.created_by),
      modified_by: ref(key.modified_by),
    })
  }
  rows.metadata_session_keys = source.metadata_session_keys
    .filter((key) => activeUser('metadata_session_keys', key))
    .map((key) => ({
      id: key.id,
      user_id: key.user_id,
      data: key.data,
      created: date(key.created),
      modified: date(key.modified),
    }))

  // Resource types: Keyward ships passbolt's, under the same slugs.
  const typeIds = new Map<string, string>()
  rows.resource_types = []
  for (const type of source.resource_types) {
    const existing = target.resourceTypes.get(String(type.slug))
    if (existing) typeIds.set(String(type.id), existing)
    else skip('resource_types', type, `resource type ${type.slug} is unknown to Keyward`)
  }

  const resourceIds = new Set<string>()
  rows.resources = []
  for (const resource of source.resources) {
    const typeId = typeIds.get(String(resource.resource_type_id))
    if (!typeId) {
      skip('resources', resource, `its resource type ${resource.resource_type_id} is not migrated`)
      continue
    }
    const metadataKey = str(resource.metadata_key_id)
    if (metadataKey !== null && !metadataKeyIds.has(metadataKey)) {
      skip('resources', resource, `its metadata key ${metadataKey} does not exist`)
      continue
    }
    resourceIds.add(String(resource.id))
    rows.resources.push({
      id: resource.id,
      name: str(resource.name),
      username: str(resource.username),
      uri: str(resource.uri),
      description: str(resource.description),
      metadata: str(resource.metadata),
      metadata_key_id: str(resource.metadata_key_id),
      metadata_key_type: str(resource.metadata_key_type),
      resource_type_id: typeId,
      deleted: bool(resource.deleted),
      expired: date(resource.expired),
      created: date(resource.created),
      modified: date(resource.modified),
      created_by: ref(resource.created_by),
      modified_by: ref(resource.modified_by),
    })
  }

  const folderIds = new Set(source.folders.map((folder) => String(folder.id)))
  rows.folders = source.folders.map((folder) => ({
    id: folder.id,
    name: str(folder.name),
    metadata: str(folder.metadata),
    metadata_key_id: str(folder.metadata_key_id),
    metadata_key_type: str(folder.metadata_key_type),
    created: date(folder.created),
    modified: date(folder.modified),
    created_by: ref(folder.created_by),
    modified_by: ref(folder.modified_by),
  }))

  // Permissions: only on items that exist, only for users and groups that still exist.
  const readers = new Map<string, Set<string>>() // item id → user ids and group ids with access
  rows.permissions = []
  for (const permission of source.permissions) {
    const aco = String(permission.aco)
    const aro = String(permission.aro)
    const item = String(permission.aco_foreign_key)
    const holder = String(permission.aro_foreign_key)
    const itemExists =
      (aco === 'Resource' && resourceIds.has(item)) || (aco === 'Folder' && folderIds.has(item))
    if (!itemExists) {
      skip('permissions', permission, `its ${aco.toLowerCase()} ${item} is not migrated`)
      continue
    }
    if (aro === 'User' && (!userIds.has(holder) || deletedUsers.has(holder))) {
      skip('permissions', permission, `it is given to user ${holder}, deleted or absent`)
      continue
    }
    if (aro === 'Group' && (!groupIds.has(holder) || deletedGroups.has(holder))) {
      skip('permissions', permission, `it is given to group ${holder}, deleted or absent`)
      continue
    }
    if (aro !== 'User' && aro !== 'Group') {
      skip('permissions', permission, `unknown holder kind ${aro}`)
      continue
    }
    const set = readers.get(item) ?? new Set<string>()
    set.add(holder)
    readers.set(item, set)
    rows.permissions.push({
      id: permission.id,
      aco,
      aco_foreign_key: item,
      aro,
      aro_foreign_key: holder,
      type: Number(permission.type),
      created: date(permission.created),
      modified: date(permission.modified),
      created_by: ref(permission.created_by),
      modified_by: ref(permission.modified_by),
    })
  }
  const canRead = (userId: string, itemId: string) => {
    const holders = readers.get(itemId)
    if (!holders) return false
    if (holders.has(userId)) return true
    for (const group of groupsOfUser.get(userId) ?? []) if (holders.has(group)) return true
    return false
  }

  rows.secrets = []
  const secretPairs = new Set<string>()
  for (const secret of source.secrets) {
    const userId = String(secret.user_id)
    const resourceId = String(secret.resource_id)
    if (secret.deleted !== null && secret.deleted !== undefined) {
      skip('secrets', secret, 'an earlier revision passbolt keeps as history')
      continue
    }
    if (!resourceIds.has(resourceId)) {
      skip('secrets', secret, `its resource ${resourceId} is not migrated`)
      continue
    }
    if (!userIds.has(userId) || deletedUsers.has(userId)) {
      skip('secrets', secret, `its user ${userId} is deleted or absent`)
      continue
    }
    if (!canRead(userId, resourceId)) {
      skip('secrets', secret, `user ${userId} has no access to resource ${resourceId}`)
      continue
    }
    if (secretPairs.has(`${userId}/${resourceId}`)) {
      skip('secrets', secret, `a second secret of user ${userId} for resource ${resourceId}`)
      continue
    }
    secretPairs.add(`${userId}/${resourceId}`)
    rows.secrets.push({
      id: secret.id,
      user_id: userId,
      resource_id: resourceId,
      data: secret.data,
      created: date(secret.created),
      modified: date(secret.modified),
      created_by: ref(secret.created_by),
      modified_by: ref(secret.modified_by),
    })
  }

  // Every reader of a password must hold its secret: passbolt keeps it so, but a database that
  // lost one would show the item to a user who cannot open it. Reported for a new share.
  const warnings: string[] = []
  const membersOf = new Map<string, string[]>()
  for (const [userId, groups] of groupsOfUser)
    for (const group of groups) membersOf.set(group, [...(membersOf.get(group) ?? []), userId])
  for (const resourceId of resourceIds) {
    const readersOf = new Set<string>()
    for (const holder of readers.get(resourceId) ?? []) {
      if (userIds.has(holder)) readersOf.add(holder)
      for (const member of membersOf.get(holder) ?? []) readersOf.add(member)
    }
    for (const userId of readersOf)
      if (!deletedUsers.has(userId) && !secretPairs.has(`${userId}/${resourceId}`))
        warnings.push(
          `user ${userId} can read resource ${resourceId} but has no secret for it: share it with them again`,
        )
  }

  rows.folders_relations = []
  for (const relation of source.folders_relations) {
    if (!ofKnownUser('folders_relations', relation)) continue
    const model = String(relation.foreign_model)
    const item = String(relation.foreign_id)
    const parent = str(relation.folder_parent_id)
    const exists = model === 'Folder' ? folderIds.has(item) : resourceIds.has(item)
    if (!exists) {
      skip('folders_relations', relation, `its ${model.toLowerCase()} ${item} is not migrated`)
      continue
    }
    if (!canRead(String(relation.user_id), item)) {
      skip('folders_relations', relation, `user ${relation.user_id} has no access to ${item}`)
      continue
    }
    if (parent !== null && !folderIds.has(parent)) {
      skip('folders_relations', relation, `its parent folder ${parent} does not exist`)
      continue
    }
    rows.folders_relations.push({
      id: relation.id,
      foreign_model: model,
      foreign_id: item,
      user_id: relation.user_id,
      folder_parent_id: parent,
      created: date(relation.created),
      modified: date(relation.modified),
    })
  }

  rows.favorites = []
  for (const favorite of source.favorites) {
    if (!ofKnownUser('favorites', favorite)) continue
    const item = String(favorite.foreign_key)
    if (!resourceIds.has(item)) {
      skip('favorites', favorite, `its resource ${item} is not migrated`)
      continue
    }
    rows.favorites.push({
      id: favorite.id,
      user_id: favorite.user_id,
      foreign_key: item,
      foreign_model: favorite.foreign_model ?? 'Resource',
      created: date(favorite.created),
      modified: date(favorite.modified ?? favorite.created),
    })
  }

  const context: PlanContext = {
    target,
    skip,
    warnings,
    userIds,
    deletedUsers,
    profileIds: new Set(rows.profiles.map((profile) => String(profile.id))),
    resourceIds,
    roleIds,
    canRead,
  }
  rows.comments = planComments(source, context)
  const tags = planTags(source, context)
  rows.tags = tags.tags
  rows.resources_tags = tags.links
  rows.ui_actions = []
  rows.rbacs = planRbacs(source, context)
  rows.organization_settings = await planOrganizationSettings(source, context, options.serverKey)
  rows.account_settings = planAccountSettings(source, context)
  rows.avatars = await planAvatars(source, context, options.imagesDir)
  return { rows, skipped, warnings }
}
