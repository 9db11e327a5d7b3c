// Server-side sessions for GPGAuth cookie logins.
import { Migration } from '@mikro-orm/migrations'

export class Migration20261122000100Sessions extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table sessions (id varchar(64) primary key,
      user_id uuid null references users(id) on delete cascade,
      last_activity timestamptz not null, created timestamptz not null default now())`)
    this.addSql('create index sessions_user_id_index on sessions (user_id)')
    this.addSql('create index sessions_last_activity_index on sessions (last_activity)')
  }
}
