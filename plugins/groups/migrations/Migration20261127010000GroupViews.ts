// What other plugins may read of groups: two views, so that access checks, the user directory
// and sharing read memberships and group rows without naming the groups plugin's tables.
import { Migration } from '@mikro-orm/migrations'

export class Migration20261127010000GroupViews extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create view group_members as
      select id, group_id, user_id, is_admin, created from groups_users`)
    this.addSql(`create view group_records as
      select id, name, deleted, created, modified, created_by, modified_by from groups`)
  }
}
