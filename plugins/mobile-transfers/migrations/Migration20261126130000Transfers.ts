// The mobile transfers table: one row per transfer, tied to its user and to the single-use token
// the phone proves itself with; a user's transfers are looked up by user and status.
import { Migration } from '@mikro-orm/migrations'

export class Migration20261126130000Transfers extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table transfers (id uuid primary key,
      user_id uuid not null references users(id) on delete cascade,
      authentication_token_id uuid not null references authentication_tokens(id) on delete cascade,
      hash varchar(128) not null, current_page integer not null, total_pages integer not null,
      status varchar(16) not null,
      created timestamptz not null default now(), modified timestamptz not null default now(),
      constraint transfers_pages_check check (current_page >= 0 and current_page < total_pages),
      constraint transfers_status_check check (status in ('start', 'in progress', 'complete', 'cancel', 'error')))`)
    this.addSql('create index transfers_user_id_status_index on transfers (user_id, status)')
  }
}
