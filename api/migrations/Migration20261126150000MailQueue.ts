// The mail queue: a mail is a row written in the transaction of the request that asked for it
// (so a rolled-back request sends nothing) and sent after commit by whichever process claims it
// first. An insert is announced on the change feed, which delivers only committed rows.
import { Migration } from '@mikro-orm/migrations'

export class Migration20261126150000MailQueue extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table mail_queue (
      id uuid primary key,
      recipient text not null,
      subject text not null,
      body text not null,
      attempts integer not null default 0,
      next_attempt_at timestamptz not null default now(),
      last_error text null,
      failed_at timestamptz null,
      created timestamptz not null default now(),
      modified timestamptz not null default now())`)
    // The sender's one question: what is due and not given up on, oldest first.
    this.addSql(
      'create index mail_queue_due_index on mail_queue (next_attempt_at) where failed_at is null',
    )
    this.addSql(`create trigger mail_queue_changed after insert on mail_queue
      for each row execute function keyward_notify_changed()`)
  }
}
