// Reads roles through the ORM.
import type { EntityManager } from '@mikro-orm/postgresql'
import { formatDate } from '../../api/envelope.ts'
import { RoleSchema } from './entities/Role.ts'

export const listRoles = async (em: EntityManager) => {
  const roles = await em.find(RoleSchema, {}, { orderBy: { name: 'asc' } })
  return roles.map((role) => ({
    id: role.id,
    name: role.name,
    description: role.description,
    created: formatDate(role.created),
    modified: formatDate(role.modified),
  }))
}

export const countRoles = (em: EntityManager) => em.count(RoleSchema)
