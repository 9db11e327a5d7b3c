// The throttles' counters, shared by every server process on the database: one row per key
// (a digest of what is counted: an account, a client address) and fixed window.
import { Migration } from '@mikro-orm/migrations'

export class Migration20261126100000Throttles extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      'create table throttles (key char(64) primary key, hits integer not null, window_ends timestamptz not null)',
    )
    this.addSql('create index throttles_window_ends_index on throttles (window_ends)')
  }
}
