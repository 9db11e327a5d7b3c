// What the tags plugin lends the resources plugin: `contain[tag]` (the tags the caller sees on
// each resource of a page, one query for the page) and the `has-tag` filter.
import type { Knex } from '@mikro-orm/postgresql'
import { type ContainContext, type ContainSpec, callerOf } from '../../api/plugin.ts'
import { isWellFormedText } from '../../api/validation.ts'
import { isSharedSlug } from './schemas.ts'
import { type TagJson, tagsOfResources } from './service.ts'

/** `contain[tag]`: each resource gets `tags`, the caller's personal tags and the shared ones. */
export const tagContain: ContainSpec = {
  plugin: 'tags',
  load: async (rows: { id: string; tags?: TagJson[] }[], context: ContainContext) => {
    const tags = await tagsOfResources(
      context.em,
      callerOf(context).id,
      rows.map((row) => row.id),
    )
    for (const row of rows) row.tags = tags.get(row.id) ?? []
  },
}

/**
 * Ids of the resources tagged with `slug`: by anyone when the tag is shared (`#…`), by the user
 * otherwise. For `whereIn`; the list it filters decides which resources the user may read.
 */
export const resourcesTagged = (knex: Knex, userId: string, slug: string) => {
  const query = knex('resources_tags').select('resources_tags.resource_id')
  // No tag has a slug PostgreSQL could not even read; answer nothing rather than an error.
  if (!isWellFormedText(slug)) return query.whereRaw('false')
  query.join('tags', 'tags.id', 'resources_tags.tag_id').where('tags.slug', slug)
  if (!isSharedSlug(slug)) query.where('resources_tags.user_id', userId)
  return query
}
