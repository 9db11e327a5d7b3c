// Functions that write JSON text, for columns PostgreSQL keeps ready as JSON documents. A
// generated column may only call immutable functions; `to_char` and `to_json` are marked stable
// because some inputs depend on the session (a time zone, a date style), which these fix: the
// time is written in UTC, and only text is quoted.
import { Migration } from '@mikro-orm/migrations'

export class Migration20261127100000JsonText extends Migration {
  override async up(): Promise<void> {
    // `2026-11-27T10:00:00+00:00`, as every date of an answer (`formatTimestamp`).
    this.addSql(`create function keyward_json_time(value timestamptz) returns text
      language sql immutable parallel safe
      as $$ select to_char(value at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"+00:00"') $$`)
    // A JSON string, quotes and escapes included.
    this.addSql(`create function keyward_json_string(value text) returns text
      language sql immutable parallel safe
      as $$ select to_json(value)::text $$`)
  }
}
