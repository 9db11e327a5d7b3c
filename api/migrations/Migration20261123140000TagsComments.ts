// Lookups the tags and comments plugins make that the initial indexes do not serve: a tag by its
// slug, a user's own tag links (personal tags, user deletion), and the replies of a comment
// (removed with it by the foreign key's cascade).
import { Migration } from '@mikro-orm/migrations'

export class Migration20261123140000TagsComments extends Migration {
  override async up(): Promise<void> {
    this.addSql('create index tags_slug_index on tags (slug)')
    this.addSql('create index resources_tags_user_id_index on resources_tags (user_id)')
    this.addSql('create index comments_parent_id_index on comments (parent_id)')
  }
}
