// What other plugins may read of resources (a resource’s type, whether it is deleted, who made
// and last changed it): a view, so that counts by type, tags, group changes and secret history
// do not name the resources plugin’s table.
import { Migration } from '@mikro-orm/migrations'

export class Migration20261127010100ResourceRecords extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create view resource_records as
      select id, resource_type_id, deleted, created_by, modified_by from resources`)
  }
}
