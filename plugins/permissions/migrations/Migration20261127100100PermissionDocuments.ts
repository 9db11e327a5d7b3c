// Each permission keeps its JSON document (the shape `permissionJson` answers), written by
// PostgreSQL when the row is written: the lists that embed tens of thousands of permissions
// (the permission tree of the resources list) concatenate them instead of formatting dates and
// ids again on every request.
import { Migration } from '@mikro-orm/migrations'

export class Migration20261127100100PermissionDocuments extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table permissions add column document text not null generated always as (
      '{"id":"' || id::text
      || '","aco":' || keyward_json_string(aco)
      || ',"aco_foreign_key":"' || aco_foreign_key::text
      || '","aro":' || keyward_json_string(aro)
      || ',"aro_foreign_key":"' || aro_foreign_key::text
      || '","type":' || type::text
      || ',"created":"' || keyward_json_time(created)
      || '","modified":"' || keyward_json_time(modified) || '"}'
    ) stored`)
  }
}
