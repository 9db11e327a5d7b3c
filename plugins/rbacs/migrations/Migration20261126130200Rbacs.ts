// UI rights: the UI actions, and each role's control function over them. Every UI action starts
// allowed for `user` (administrators are never restricted; guests have no interface).
import { Migration } from '@mikro-orm/migrations'
import { UI_ACTIONS, uiActionId } from '../ui-actions.ts'

export class Migration20261126130200Rbacs extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table ui_actions (id uuid primary key, name varchar(255) not null unique,
      created timestamptz not null default now(), modified timestamptz not null default now())`)
    this.addSql(`create table rbacs (id uuid primary key,
      role_id uuid not null references roles(id) on delete cascade,
      foreign_model varchar(36) not null, foreign_id uuid not null,
      control_function varchar(64) not null,
      created timestamptz not null default now(), modified timestamptz not null default now(),
      created_by uuid null, modified_by uuid null,
      constraint rbacs_role_foreign_unique unique (role_id, foreign_model, foreign_id))`)
    for (const name of Object.keys(UI_ACTIONS))
      this.addSql(`insert into ui_actions (id, name) values ('${uiActionId(name)}', '${name}')`)
    this.addSql(`insert into rbacs (id, role_id, foreign_model, foreign_id, control_function)
      select gen_random_uuid(), roles.id, 'UiAction', ui_actions.id, 'Allow'
      from roles cross join ui_actions where roles.name = 'user'`)
  }
}
