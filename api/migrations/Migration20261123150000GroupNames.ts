// A live group's name is unique (passbolt's `group_unique` rule), enforced by the database so
// that two concurrent creations cannot both pass the check.
import { Migration } from '@mikro-orm/migrations'

export class Migration20261123150000GroupNames extends Migration {
  override async up(): Promise<void> {
    this.addSql('create unique index groups_name_unique on groups (name) where not deleted')
  }
}
