// When each periodic job (purges, notices) last started, shared by every API process: a process
// starts a job only by moving this time forward, in one statement, so it runs once a period
// however many processes there are.
import { Migration } from '@mikro-orm/migrations'

export class Migration20261126150100ScheduledJobs extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      'create table scheduled_jobs (name varchar(100) primary key, last_started timestamptz not null)',
    )
  }
}
