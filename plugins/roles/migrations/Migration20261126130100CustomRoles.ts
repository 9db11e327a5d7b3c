// Custom roles: roles are soft-deleted and remember who made and changed them, and a name is
// unique among live roles whatever its case. passbolt dropped its unused `root` role in 4.1, so
// that it no longer takes one of the five live roles an organisation may have.
import { Migration } from '@mikro-orm/migrations'

export class Migration20261126130100CustomRoles extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table roles add column deleted timestamptz null,
      add column created_by uuid null, add column modified_by uuid null, add column deleted_by uuid null`)
    this.addSql('alter table roles drop constraint roles_name_key')
    this.addSql(
      'create unique index roles_live_name_unique on roles (lower(name)) where deleted is null',
    )
    this.addSql(
      "delete from roles where name = 'root' and not exists (select 1 from users where users.role_id = roles.id)",
    )
  }
}
