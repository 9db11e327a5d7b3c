// Ownership questions a user or group deletion asks: which shared items would be left without
// an owner, and which items nobody else can reach (they go with the deleted user or group).
// For a user, the groups they alone manage count as theirs, as passbolt counts them.
import type { EntityManager, Knex } from '@mikro-orm/postgresql'
import { selectSql } from '../../api/orm.ts'
import type { DeletionSubject } from '../users/index.ts'
import type { Aco } from './levels.ts'

/**
 * The ids standing for the subject: itself, and for a user the live groups where they are the
 * only manager (`sole`), those with other members apart (`soleNonEmpty`).
 */
const SUBJECT_AROS = `
  sole as (
    select gu.group_id from group_members gu join group_records g on g.id = gu.group_id and not g.deleted
    where gu.user_id = :id and gu.is_admin and :isUser
      and not exists (select 1 from group_members o where o.group_id = gu.group_id and o.is_admin and o.user_id <> :id)),
  sole_non_empty as (
    select s.group_id from sole s
    where exists (select 1 from group_members o where o.group_id = s.group_id and o.user_id <> :id)),
  aros as (select cast(:id as uuid) as aro union select group_id from sole),
  alone as (
    select gu.group_id from group_members gu
    where gu.user_id = :id and :isUser
      and not exists (select 1 from group_members o where o.group_id = gu.group_id and o.user_id <> :id)),
  own_reach as (select cast(:id as uuid) as aro union select group_id from alone)`

const execute = async (em: EntityManager, sql: string, subject: DeletionSubject, aco: Aco) =>
  (
    await selectSql<{ id: string }>(em, sql, {
      id: subject.id,
      isUser: subject.kind === 'User',
      aco,
    })
  ).map((row) => row.id)

/** Items the subject can reach and nobody else can: they go with it. */
export const itemsOnlyReachableBy = (em: EntityManager, subject: DeletionSubject, aco: Aco) =>
  execute(
    em,
    `with ${SUBJECT_AROS}
     select distinct p.aco_foreign_key as id from permissions p
     where p.aco = :aco and p.aro_foreign_key in (select aro from own_reach)
       and not exists (select 1 from permissions q
         where q.aco_foreign_key = p.aco_foreign_key and q.aro_foreign_key not in (select aro from own_reach))`,
    subject,
    aco,
  )

/**
 * Shared items the subject (with, for a user, the groups they alone manage) is the only owner
 * of: deleting the subject would leave others with an item nobody owns.
 */
export const soleOwnedSharedItems = (em: EntityManager, subject: DeletionSubject, aco: Aco) =>
  execute(
    em,
    `with ${SUBJECT_AROS}
     select distinct p.aco_foreign_key as id from permissions p
     where p.aco = :aco and p.type = 15 and p.aro_foreign_key in (select aro from aros)
       and not exists (select 1 from permissions o where o.aco_foreign_key = p.aco_foreign_key
         and o.type = 15 and o.aro_foreign_key not in (select aro from aros))
       and p.aco_foreign_key not in (select q.aco_foreign_key from permissions q
         where q.type = 15 and q.aro_foreign_key in (select group_id from sole_non_empty))
       and exists (select 1 from permissions s where s.aco_foreign_key = p.aco_foreign_key
         and s.aro_foreign_key not in (select aro from own_reach))`,
    subject,
    aco,
  )

/** Ids of the shared items of a kind: more than one user, or any group, holds a permission. */
export const sharedItemIds = (knex: Knex, aco: Aco) =>
  knex('permissions')
    .select('aco_foreign_key')
    .where('aco', aco)
    .groupBy('aco_foreign_key')
    .havingRaw(
      "count(*) filter (where aro = 'User') > 1 or count(*) filter (where aro = 'Group') > 0",
    )
