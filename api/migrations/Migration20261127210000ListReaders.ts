// Changes to the tables behind each user's resources list name the users whose lists they may
// change, so that a change drops only their kept lists: `<table>:<user id>` once for each,
// `<table>:-` when the change reaches no user's list, and `<table>:` (every list) past
// READERS_NAMED users.
//
// A resources list shows what its caller reads, with their permission, favourite, personal tags
// and folder, and whether each item is personal (one user in its folder relations). So:
// - a change to an item (resources) or to any of its permissions or folder relations names every
//   reader of the item, after the change, and the users the changed rows named (who may have lost
//   it);
// - a favourite, a group membership or a personal tag names its user; a shared tag names the
//   readers of its resource.
// Readers are found through the permissions, directly or through a group's members. Each event
// has its own statement trigger (PostgreSQL gives transition tables to one event per trigger);
// truncation announces the whole table as before.
import { Migration } from '@mikro-orm/migrations'

/** Beyond this many users, a change drops every list reading its table. */
const READERS_NAMED = 500

/** Users who read any item whose id `items` (a select of one uuid column) returns. */
const readersOf = (items: string) => `
  select p.aro_foreign_key from permissions p
    where p.aro = 'User' and p.aco_foreign_key in (${items})
  union
  select gu.user_id from permissions p join groups_users gu on gu.group_id = p.aro_foreign_key
    where p.aro = 'Group' and p.aco_foreign_key in (${items})`

/** For each table, the users a set of its changed rows (`rows`, a from item) names. */
const NAMED: Record<string, (rows: string) => string> = {
  resources: (rows) => readersOf(`select r.id from ${rows}`),
  permissions: (rows) => `
    ${readersOf(`select r.aco_foreign_key from ${rows}`)}
    union select r.aro_foreign_key from ${rows} where r.aro = 'User'
    union select gu.user_id from ${rows} join groups_users gu on gu.group_id = r.aro_foreign_key
      where r.aro = 'Group'`,
  folders_relations: (rows) => `
    ${readersOf(`select r.foreign_id from ${rows}`)}
    union select r.user_id from ${rows}`,
  favorites: (rows) => `select r.user_id from ${rows}`,
  groups_users: (rows) => `select r.user_id from ${rows}`,
  resources_tags: (rows) => `
    select r.user_id from ${rows} where r.user_id is not null
    union ${readersOf(`select r.resource_id from ${rows} where r.user_id is null`)}`,
}

const EVENTS = [
  { event: 'insert', referencing: 'new table as new_rows', rows: 'new_rows r' },
  { event: 'delete', referencing: 'old table as old_rows', rows: 'old_rows r' },
  {
    event: 'update',
    referencing: 'old table as old_rows new table as new_rows',
    rows: '(select * from new_rows union all select * from old_rows) r',
  },
] as const

export class Migration20261127210000ListReaders extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create function keyward_notify_readers(tab text, names text[]) returns void
      language plpgsql as $$
      begin
        if cardinality(names) > ${READERS_NAMED} then
          perform pg_notify('keyward_changed', tab || ':');
        elsif cardinality(names) = 0 then
          perform pg_notify('keyward_changed', tab || ':-');
        else
          perform pg_notify('keyward_changed', tab || ':' || name) from unnest(names) name;
        end if;
      end $$`)
    for (const [table, named] of Object.entries(NAMED)) {
      const branches = EVENTS.map(
        ({
          event,
          rows,
        }) => `${event === 'insert' ? 'if' : 'elsif'} tg_op = '${event.toUpperCase()}' then
          names := array(select distinct n::text from (${named(rows)}) s(n)
            where n is not null limit ${READERS_NAMED + 1});`,
      ).join('\n')
      const triggers = EVENTS.map(
        ({ event, referencing }) =>
          `create trigger ${table}_listed_${event} after ${event} on ${table}
            referencing ${referencing}
            for each statement execute function keyward_notify_${table}_readers();`,
      ).join('\n')
      // A database that holds only the core's tables (a plugin's own tests) has none of these.
      this.addSql(`do $migration$ begin
        if to_regclass('${table}') is not null then
          create function keyward_notify_${table}_readers() returns trigger language plpgsql as $$
            declare names text[];
            begin
              ${branches}
              end if;
              perform keyward_notify_readers(tg_table_name, names);
              return null;
            end $$;
          drop trigger ${table}_listed on ${table};
          ${triggers}
          create trigger ${table}_listed_truncate after truncate on ${table}
            for each statement execute function keyward_notify_table_changed();
        end if;
      end $migration$`)
    }
  }
}
