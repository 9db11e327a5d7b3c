// Changes to the tables the kept lists read (the resources list, the users directory) are
// announced on the `keyward_changed` channel as `<table>:`, once a statement (PostgreSQL sends
// one notification of each payload a transaction), so each API process drops the lists it
// keeps the moment the change commits. `users` announces each row already.
import { Migration } from '@mikro-orm/migrations'

const TABLES = [
  'resources',
  'resource_types',
  'permissions',
  'groups',
  'groups_users',
  'profiles',
  'roles',
  'gpgkeys',
  'avatars',
  'favorites',
  'tags',
  'resources_tags',
  'folders_relations',
]

export class Migration20261127200000ListChanges extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create function keyward_notify_table_changed() returns trigger language plpgsql as $$
      begin
        perform pg_notify('keyward_changed', tg_table_name || ':');
        return null;
      end $$`)
    // A database that holds only the core's tables (a plugin's own tests) has none of these.
    for (const table of TABLES)
      this.addSql(`do $$ begin
        if to_regclass('${table}') is not null then
          create trigger ${table}_listed after insert or update or delete or truncate on ${table}
            for each statement execute function keyward_notify_table_changed();
        end if;
      end $$`)
  }
}
