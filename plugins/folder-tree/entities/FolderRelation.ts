// Where an item (a resource or a folder) sits in one user's tree: its parent folder for that
// user, or the root. One row per user and item they can read.
import { defineEntity, type InferEntity } from '@mikro-orm/core'
import { baseProperties } from '../../../api/orm.ts'

const p = defineEntity.properties

export const FolderRelationSchema = defineEntity({
  name: 'FolderRelation',
  tableName: 'folders_relations',
  properties: {
    ...baseProperties,
    foreignModel: p.string().length(30),
    foreignId: p.uuid(),
    userId: p.uuid(),
    folderParentId: p.uuid().nullable(),
  },
})

export type FolderRelation = InferEntity<typeof FolderRelationSchema>
