// Each resource keeps the opening of its JSON document (its own fields, as `resourceJson`
// answers them, without the closing brace), written by PostgreSQL when the row is written: the
// lists append what depends on the caller (folder, permission, favourite, tags) instead of
// escaping names, descriptions and encrypted metadata again on every request.
import { Migration } from '@mikro-orm/migrations'

const text = (column: string) => `coalesce(keyward_json_string(${column}), 'null')`
const uuid = (column: string) => `coalesce('"' || ${column}::text || '"', 'null')`

export class Migration20261127100300ResourceDocuments extends Migration {
  override async up(): Promise<void> {
    // v5 resources answer their encrypted metadata, v4 ones their clear fields, never both.
    const own = `'{"id":"' || id::text || '",' || case when metadata is null
      then '"name":' || ${text('name')} || ',"username":' || ${text('username')}
        || ',"uri":' || ${text('uri')} || ',"description":' || ${text('description')}
      else '"metadata":' || ${text('metadata')} || ',"metadata_key_id":' || ${uuid('metadata_key_id')}
        || ',"metadata_key_type":' || ${text('metadata_key_type')} end`
    this.addSql(`alter table resources add column document_head text not null generated always as (
      ${own}
      || ',"deleted":' || deleted::text
      || ',"created":"' || keyward_json_time(created)
      || '","modified":"' || keyward_json_time(modified)
      || '","created_by":' || ${uuid('created_by')}
      || ',"modified_by":' || ${uuid('modified_by')}
      || ',"resource_type_id":"' || resource_type_id::text
      || '","expired":' || coalesce('"' || keyward_json_time(expired) || '"', 'null')
    ) stored`)
  }
}
