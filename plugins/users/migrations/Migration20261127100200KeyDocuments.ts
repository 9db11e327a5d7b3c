// Each public key keeps its JSON document (the `gpgkey` of a user, as `gpgkeyJson` answers it),
// written by PostgreSQL when the row is written: the directory of thousands of users with their
// keys concatenates it instead of escaping every armored key again on every request.
import { Migration } from '@mikro-orm/migrations'

export class Migration20261127100200KeyDocuments extends Migration {
  override async up(): Promise<void> {
    const date = (column: string) => `coalesce('"' || keyward_json_time(${column}) || '"', 'null')`
    this.addSql(`alter table gpgkeys add column document text not null generated always as (
      '{"id":"' || id::text
      || '","user_id":"' || user_id::text
      || '","armored_key":' || keyward_json_string(armored_key)
      || ',"bits":' || coalesce(bits::text, 'null')
      || ',"uid":' || keyward_json_string(uid)
      || ',"key_id":' || keyward_json_string(key_id)
      || ',"fingerprint":' || keyward_json_string(fingerprint)
      || ',"type":' || keyward_json_string(type)
      || ',"expires":' || ${date('expires')}
      || ',"key_created":' || ${date('key_created')}
      || ',"deleted":' || deleted::text
      || ',"created":"' || keyward_json_time(created)
      || '","modified":"' || keyward_json_time(modified) || '"}'
    ) stored`)
  }
}
