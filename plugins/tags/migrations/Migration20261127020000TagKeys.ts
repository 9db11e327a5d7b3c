// Tags get keys, so that a tag is never made twice whatever runs at the same moment: one shared
// tag a slug, one personal tag a user and slug (the tag now names its user), one link a
// resource, tag and user. Rows that broke these rules are merged first: links move to the kept
// tag, a personal tag several users linked (as passbolt keeps them) is split into one a user,
// duplicate links go, and so do tags nothing links.
import { Migration } from '@mikro-orm/migrations'

export class Migration20261127020000TagKeys extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      'alter table tags add column user_id uuid null references users(id) on delete cascade',
    )
    // Shared tags: the smallest id of each slug is kept.
    this.addSql(`update resources_tags rt set tag_id = kept.id
      from tags t, (select slug, min(id::text)::uuid as id from tags
        where is_shared and slug is not null group by slug) kept
      where rt.tag_id = t.id and t.is_shared and t.slug = kept.slug and t.id <> kept.id`)
    // Personal tags: each belongs to the first of the users who link it (by id)...
    this.addSql(`update tags t set user_id = owner.user_id
      from (select distinct on (tag_id) tag_id, user_id from resources_tags
        where user_id is not null order by tag_id, user_id) owner
      where owner.tag_id = t.id and not t.is_shared`)
    // ...the others get a tag of their own of that slug...
    this.addSql(`insert into tags (id, slug, is_shared, user_id, created)
      select gen_random_uuid(), pair.slug, false, pair.user_id, now()
      from (select distinct rt.user_id, t.slug from resources_tags rt join tags t on t.id = rt.tag_id
        where rt.user_id is not null and not t.is_shared and t.slug is not null) pair
      where not exists (select 1 from tags own
        where own.user_id = pair.user_id and own.slug = pair.slug and not own.is_shared)`)
    // ...and every personal link moves to its user's tag of its slug with the smallest id.
    this.addSql(`update resources_tags rt set tag_id = (select min(o.id::text)::uuid from tags o
        where o.user_id = rt.user_id and o.slug = t.slug and not o.is_shared)
      from tags t
      where rt.tag_id = t.id and rt.user_id is not null and not t.is_shared and t.slug is not null`)
    this.addSql(`delete from resources_tags rt using resources_tags kept
      where kept.resource_id = rt.resource_id and kept.tag_id = rt.tag_id
        and kept.user_id is not distinct from rt.user_id and kept.id < rt.id`)
    this.addSql(
      'delete from tags where not exists (select 1 from resources_tags rt where rt.tag_id = tags.id)',
    )
    this.addSql('create unique index tags_shared_slug_unique on tags (slug) where is_shared')
    this.addSql(
      'create unique index tags_personal_slug_unique on tags (user_id, slug) where not is_shared',
    )
    this.addSql(
      'create unique index resources_tags_shared_unique on resources_tags (resource_id, tag_id) where user_id is null',
    )
    this.addSql(
      'create unique index resources_tags_personal_unique on resources_tags (resource_id, tag_id, user_id) where user_id is not null',
    )
  }
}
