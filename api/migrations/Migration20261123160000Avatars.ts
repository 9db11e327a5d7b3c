// Avatars are stored resized once on upload, in both sizes served (`data` holds the medium one),
// and a profile has at most one: a new upload replaces the old in one statement.
import { Migration } from '@mikro-orm/migrations'

export class Migration20261123160000Avatars extends Migration {
  override async up(): Promise<void> {
    this.addSql('alter table avatars add column small bytea not null')
    this.addSql('drop index avatars_profile_id_index')
    this.addSql('create unique index avatars_profile_id_unique on avatars (profile_id)')
  }
}
