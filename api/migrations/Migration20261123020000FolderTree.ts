// Each user sees an item at most once in their tree; every user who can read a resource or a
// folder already has it (at the root) in their tree.
import { Migration } from '@mikro-orm/migrations'

export class Migration20261123020000FolderTree extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      'create unique index folders_relations_user_item_unique on folders_relations (user_id, foreign_id)',
    )
    this.addSql(`insert into folders_relations (id, foreign_model, foreign_id, user_id, folder_parent_id)
      select gen_random_uuid(), p.aco, p.aco_foreign_key, reach.user_id, null
      from permissions p
      join lateral (
        select p.aro_foreign_key as user_id where p.aro = 'User'
        union select gu.user_id from groups_users gu where p.aro = 'Group' and gu.group_id = p.aro_foreign_key
      ) reach on true
      left join resources r on r.id = p.aco_foreign_key
      where p.aco = 'Folder' or (p.aco = 'Resource' and not r.deleted)
      on conflict do nothing`)
  }
}
