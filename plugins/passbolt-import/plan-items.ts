// Comments, tags and their links, and the roles' UI rights: each row checked against what the
// core of the plan moves, so none points at a password, user or role left behind.
import { randomUUID } from 'node:crypto'
import { UI_ACTIONS } from '../rbacs/index.ts'
import { ofLiveUser, type PlanContext } from './plan-context.ts'
import { bool, date, ref, str, type TargetRow } from './plan-values.ts'
import type { SourceData, SourceRow } from './source.ts'

/** Keyward's comments column holds at most this many characters, as passbolt's. */
const COMMENT_LENGTH = 256

/** Comments, parents before their replies so each insert finds its parent already written. */
export const planComments = (source: SourceData, context: PlanContext): TargetRow[] => {
  const byId = new Map(source.comments.map((comment) => [String(comment.id), comment]))
  const kept = new Map<string, TargetRow>()
  const refused = new Set<string>()
  const order: TargetRow[] = []
  const visit = (comment: SourceRow, seen: Set<string>): boolean => {
    const id = String(comment.id)
    if (kept.has(id)) return true
    if (refused.has(id)) return false
    const refuse = (reason: string) => {
      refused.add(id)
      context.skip('comments', comment, reason)
      return false
    }
    if (String(comment.foreign_model) !== 'Resource')
      return refuse(`it comments on a ${comment.foreign_model}, which Keyward does not`)
    if (!context.resourceIds.has(String(comment.foreign_key)))
      return refuse(`its resource ${comment.foreign_key} is not migrated`)
    if (!context.userIds.has(String(comment.user_id)))
      return refuse(`its author ${comment.user_id} is not a migrated user`)
    const content = str(comment.content) ?? ''
    if (content === '')
      return refuse('it has no clear text content (encrypted comments are not supported)')
    if ([...content].length > COMMENT_LENGTH)
      return refuse(`its content is longer than ${COMMENT_LENGTH} characters`)
    const parentId = str(comment.parent_id)
    if (parentId !== null) {
      const parent = byId.get(parentId)
      if (!parent || seen.has(parentId)) return refuse(`its parent comment ${parentId} is missing`)
      if (!visit(parent, new Set([...seen, id])))
        return refuse(`its parent comment ${parentId} is not migrated`)
    }
    const row = {
      id,
      parent_id: parentId,
      foreign_key: comment.foreign_key,
      foreign_model: 'Resource',
      content,
      user_id: comment.user_id,
      created: date(comment.created),
      modified: date(comment.modified),
      created_by: ref(comment.created_by),
      modified_by: ref(comment.modified_by),
    }
    kept.set(id, row)
    order.push(row)
    return true
  }
  for (const comment of source.comments) visit(comment, new Set())
  return order
}

/**
 * Tags and their links. A shared tag's link (no user) needs only its resource; a personal one
 * also needs a live user who still reads the resource, as Keyward shows a user only their own.
 * Keyward keeps one shared tag a slug and one personal tag a user and slug, which the user owns:
 * a personal tag several users link in passbolt becomes one tag each (the first keeps its id),
 * a repeated link goes, and so does a tag no moved link uses.
 */
export const planTags = (source: SourceData, context: PlanContext) => {
  const sourceTags = new Map(source.tags.map((tag) => [String(tag.id), tag]))
  const tags = new Map<string, TargetRow>()
  const usedIds = new Set<string>()
  const linked = new Set<string>()
  const links: TargetRow[] = []
  for (const link of source.resources_tags) {
    const resourceId = String(link.resource_id)
    const userId = str(link.user_id)
    const tag = sourceTags.get(String(link.tag_id))
    if (!tag) {
      context.skip('resources_tags', link, `its tag ${link.tag_id} does not exist`)
      continue
    }
    if (!context.resourceIds.has(resourceId)) {
      context.skip('resources_tags', link, `its resource ${resourceId} is not migrated`)
      continue
    }
    const shared = bool(tag.is_shared)
    if (!shared) {
      if (userId === null) {
        context.skip('resources_tags', link, 'it links a personal tag without a user')
        continue
      }
      if (!ofLiveUser(context, 'resources_tags', link)) continue
      if (!context.canRead(userId, resourceId)) {
        context.skip('resources_tags', link, `user ${userId} has no access to ${resourceId}`)
        continue
      }
    }
    const slug = str(tag.slug)
    const name = slug === null ? `id:${tag.id}` : `slug:${slug}`
    const key = shared ? name : `${userId}:${name}`
    let row = tags.get(key)
    if (!row) {
      const sourceId = String(tag.id)
      row = {
        id: usedIds.has(sourceId) ? randomUUID() : sourceId,
        slug,
        is_shared: shared,
        user_id: shared ? null : userId,
        metadata: str(tag.metadata),
        metadata_key_id: str(tag.metadata_key_id),
        metadata_key_type: str(tag.metadata_key_type),
      }
      usedIds.add(sourceId)
      tags.set(key, row)
    }
    const linkKey = `${resourceId}:${row.id}`
    if (linked.has(linkKey)) {
      context.skip('resources_tags', link, 'it repeats another link of its password and tag')
      continue
    }
    linked.add(linkKey)
    links.push({
      id: link.id,
      resource_id: resourceId,
      tag_id: row.id,
      user_id: shared ? null : userId,
      created: date(link.created),
    })
  }
  for (const tag of source.tags)
    if (!usedIds.has(String(tag.id)))
      context.skip('tags', tag, 'no migrated password is tagged with it')
  return { tags: [...tags.values()], links }
}

/**
 * Each role's UI rights, matched to Keyward's UI actions by name. Rows for the built-in `user`
 * role replace the defaults Keyward seeded (the writer merges on role and action).
 */
export const planRbacs = (source: SourceData, context: PlanContext): TargetRow[] => {
  const actionNames = new Map(source.ui_actions.map((action) => [String(action.id), action.name]))
  const rows: TargetRow[] = []
  for (const rbac of source.rbacs) {
    const roleId = context.roleIds.get(String(rbac.role_id))
    if (!roleId) {
      context.skip('rbacs', rbac, `its role ${rbac.role_id} is not migrated`)
      continue
    }
    if (rbac.foreign_model !== 'UiAction') {
      context.skip('rbacs', rbac, `it controls a ${rbac.foreign_model}, not a UI action`)
      continue
    }
    const name = String(actionNames.get(String(rbac.foreign_id)))
    const actionId = context.target.uiActions.get(name)
    if (!actionId) {
      context.skip('rbacs', rbac, `UI action ${name} is unknown to Keyward`)
      continue
    }
    const controlFunction = String(rbac.control_function)
    if (!(UI_ACTIONS[name] ?? []).some((allowed) => allowed === controlFunction)) {
      context.skip('rbacs', rbac, `${controlFunction} is not a rule ${name} accepts`)
      continue
    }
    rows.push({
      id: rbac.id,
      role_id: roleId,
      foreign_model: 'UiAction',
      foreign_id: actionId,
      control_function: controlFunction,
      created: date(rbac.created),
      modified: date(rbac.modified),
      created_by: ref(rbac.created_by),
      modified_by: ref(rbac.modified_by),
    })
  }
  return rows
}
