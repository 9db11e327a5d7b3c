// The permission every new item starts with: its creator owns it.
import { randomUUID } from 'node:crypto'
import type { EntityManager } from '@mikro-orm/postgresql'
import { executeStatement } from '../../api/orm.ts'
import { type Aco, OWNER } from './levels.ts'

export const grantOwnerToCreator = (
  em: EntityManager,
  aco: Aco,
  itemId: string,
  userId: string,
  now: Date,
) =>
  executeStatement(em, (knex) =>
    knex('permissions').insert({
      id: randomUUID(),
      aco,
      aco_foreign_key: itemId,
      aro: 'User',
      aro_foreign_key: userId,
      type: OWNER,
      created: now,
      modified: now,
      created_by: userId,
      modified_by: userId,
    }),
  )
