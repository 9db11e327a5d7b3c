// An organisation for the list benchmarks, written with SQL: `resources` passwords owned by one
// user, `readable` of them readable by the reader (half directly, all through groups too), five
// permissions each, 50 other users with profiles in 20 groups, every holder's folder-tree entry,
// favourites, and shared and personal tags.
import type pg from 'pg'

export interface OrganisationSize {
  /** Passwords in the organisation. */
  resources: number
  /** How many of them the reader can read. @default resources */
  readable?: number
}

/** Seeds the organisation around two users made through the real setup flow. */
export const seedOrganisation = async (
  db: pg.Client,
  users: { reader: { id: string }; owner: { id: string } },
  size: OrganisationSize,
) => {
  const { reader, owner } = users
  const readable = Math.min(size.readable ?? size.resources, size.resources)
  const statements = [
    // 50 other users, each a member of one of the groups 11-20; the reader belongs to 1-10.
    `insert into users (id, role_id, username, active)
       select gen_random_uuid(), (select id from roles where name = 'user'), 'other' || i || '@keyward.test', true
       from generate_series(1, 50) i`,
    `insert into profiles (id, user_id, first_name, last_name)
       select gen_random_uuid(), id, 'Other', username from users where username like 'other%'`,
    `insert into groups (id, name) select gen_random_uuid(), 'group' || i from generate_series(1, 20) i`,
    `insert into groups_users (id, group_id, user_id)
       select gen_random_uuid(), g.id, '${reader.id}' from groups g where g.name ~ '^group([1-9]|10)$'`,
    `insert into groups_users (id, group_id, user_id)
       select gen_random_uuid(), g.id, u.id
       from (select id, row_number() over (order by id) n from users where username like 'other%') u
       join groups g on g.name = 'group' || (u.n % 10 + 11)`,
    `insert into resources (id, name, username, uri, resource_type_id, created_by, modified_by)
       select gen_random_uuid(), 'resource ' || lpad(i::text, 6, '0'), 'user' || i, 'https://example.com/' || i,
         'a28a04cd-6f53-518a-967c-9963bf9cec51', '${owner.id}', '${owner.id}'
       from generate_series(1, ${size.resources}) i`,
    `create temporary table numbered as
       select id, row_number() over (order by id) n from resources`,
    // Five permissions each: the owner, two other users, and either the reader directly plus
    // one group, or two groups one of which the reader belongs to; past the readable ones, two
    // groups the reader is not in.
    `insert into permissions (id, aco, aco_foreign_key, aro, aro_foreign_key, type)
       select gen_random_uuid(), 'Resource', r.id, 'User', '${owner.id}', 15 from resources r`,
    `insert into permissions (id, aco, aco_foreign_key, aro, aro_foreign_key, type)
       select gen_random_uuid(), 'Resource', r.id, 'User', u.id, 1
       from numbered r
       join (select id, row_number() over (order by id) n from users where username like 'other%') u
         on u.n in (r.n % 50 + 1, (r.n + 7) % 50 + 1)`,
    `insert into permissions (id, aco, aco_foreign_key, aro, aro_foreign_key, type)
       select gen_random_uuid(), 'Resource', r.id, 'User', '${reader.id}', 7
       from numbered r where r.n % 2 = 0 and r.n <= ${readable}`,
    `insert into permissions (id, aco, aco_foreign_key, aro, aro_foreign_key, type)
       select gen_random_uuid(), 'Resource', r.id, 'Group', g.id, 1
       from numbered r
       join (select id, substring(name from 6)::int n from groups) g
         on (r.n <= ${readable} and r.n % 2 = 1 and g.n in (r.n % 10 + 1, r.n % 10 + 11))
         or (r.n <= ${readable} and r.n % 2 = 0 and g.n = r.n % 10 + 11)
         or (r.n > ${readable} and g.n in (r.n % 10 + 11, (r.n + 3) % 10 + 11))`,
    // Every user who can read a resource has it in their folder tree, at the root.
    `insert into folders_relations (id, foreign_model, foreign_id, user_id)
       select gen_random_uuid(), 'Resource', holders.aco_foreign_key, holders.user_id
       from (select distinct p.aco_foreign_key, coalesce(gu.user_id, p.aro_foreign_key) as user_id
             from permissions p left join groups_users gu on p.aro = 'Group' and gu.group_id = p.aro_foreign_key
             where p.aro = 'User' or gu.user_id is not null) holders`,
    `insert into favorites (id, user_id, foreign_key, foreign_model)
       select gen_random_uuid(), '${reader.id}', id, 'Resource' from numbered
       where n <= ${readable} and n % 10 = 0`,
    // 20 shared tags (one on each resource), 50 of the reader's own and 50 of the owner's.
    `insert into tags (id, slug, is_shared)
       select gen_random_uuid(), '#shared' || i, true from generate_series(1, 20) i
       union all select gen_random_uuid(), 'mine' || i, false from generate_series(1, 50) i
       union all select gen_random_uuid(), 'theirs' || i, false from generate_series(1, 50) i`,
    `insert into resources_tags (id, resource_id, tag_id, user_id)
       select gen_random_uuid(), r.id, t.id, case when t.is_shared then null
         when t.slug like 'mine%' then '${reader.id}'::uuid else '${owner.id}'::uuid end
       from numbered r
       join (select id, slug, is_shared, row_number() over (partition by left(slug, 2) order by slug) n
             from tags) t
         on (t.is_shared and t.n = r.n % 20 + 1)
         or (t.slug like 'mine%' and t.n = r.n % 50 + 1 and r.n <= ${readable})
         or (t.slug like 'theirs%' and t.n = r.n % 50 + 1)`,
    'drop table numbered',
    'analyze',
  ]
  for (const statement of statements) await db.query(statement)
  const [{ count }] = (
    await db.query(
      `select count(distinct p.aco_foreign_key)::int as count from permissions p
       where p.aro_foreign_key = $1 or p.aro_foreign_key in (select group_id from groups_users where user_id = $1)`,
      [reader.id],
    )
  ).rows
  return { readable: count as number }
}
