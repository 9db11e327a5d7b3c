// Password history: when a user's secret of a resource is replaced, the replaced one is kept
// for that user (up to the organisation's `max_revisions` minus the current one, oldest pruned
// first). Triggers on `secrets` keep it, in the transaction of whatever changed the secret, so
// every way a secret changes is covered; when a secret goes (access lost, resource deleted),
// its user's history of that resource goes with it.
import { Migration } from '@mikro-orm/migrations'

export class Migration20261126130300SecretRevisions extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table secret_revisions (id uuid primary key,
      resource_id uuid not null references resources(id) on delete cascade,
      user_id uuid not null references users(id) on delete cascade,
      resource_type_id uuid null, data text not null,
      created timestamptz not null, created_by uuid null,
      modified timestamptz not null default now(), modified_by uuid null,
      deleted timestamptz not null default now())`)
    this.addSql(
      'create index secret_revisions_resource_user_index on secret_revisions (resource_id, user_id, deleted desc)',
    )
    this.addSql(`create function keyward_keep_secret_revision() returns trigger language plpgsql as $$
      declare
        kept integer;
      begin
        select coalesce((value->>'max_revisions')::integer, 1) - 1 into kept
          from organization_settings where property = 'secretRevisions';
        kept := coalesce(kept, 0);
        if kept > 0 then
          insert into secret_revisions (id, resource_id, user_id, resource_type_id, data, created,
              created_by, modified_by)
            select gen_random_uuid(), old.resource_id, old.user_id, resources.resource_type_id,
              old.data, old.modified, old.modified_by, new.modified_by
            from resources where resources.id = old.resource_id;
        end if;
        delete from secret_revisions where resource_id = old.resource_id and user_id = old.user_id
          and id not in (select id from secret_revisions
            where resource_id = old.resource_id and user_id = old.user_id
            order by deleted desc, created desc limit kept);
        return null;
      end $$`)
    this.addSql(`create trigger secrets_keep_revision after update of data on secrets
      for each row when (old.data is distinct from new.data)
      execute function keyward_keep_secret_revision()`)
    this.addSql(`create function keyward_forget_secret_revisions() returns trigger language plpgsql as $$
      begin
        delete from secret_revisions where resource_id = old.resource_id and user_id = old.user_id;
        return null;
      end $$`)
    this.addSql(`create trigger secrets_forget_revisions after delete on secrets
      for each row execute function keyward_forget_secret_revisions()`)
  }
}
