// The tables the core owns rather than a plugin: migrations' own bookkeeping, the throttles, the
// mail queue and the scheduled jobs.
export const CORE_TABLES = ['mikro_orm_migrations', 'throttles', 'mail_queue', 'scheduled_jobs']
