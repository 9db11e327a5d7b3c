// Changes to the rows every request reads (users, organisation settings) are announced on the
// `keyward_changed` channel as `<table>:<id>`, so each API process can drop what it keeps of
// them the moment the change commits.
import { Migration } from '@mikro-orm/migrations'

export class Migration20261123000100ChangeFeed extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create function keyward_notify_changed() returns trigger language plpgsql as $$
      begin
        perform pg_notify('keyward_changed', tg_table_name || ':' || coalesce(old.id, new.id)::text);
        return null;
      end $$`)
    for (const table of ['users', 'organization_settings'])
      this.addSql(`create trigger ${table}_changed after insert or update or delete on ${table}
        for each row execute function keyward_notify_changed()`)
  }
}
