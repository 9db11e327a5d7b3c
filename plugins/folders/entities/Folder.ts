// A folder people organise resources and folders in: a name in clear (v4) or encrypted
// metadata (v5). Where it sits is each user's own business (folders_relations).
import { defineEntity, type InferEntity } from '@mikro-orm/core'
import { baseProperties } from '../../../api/orm.ts'

const p = defineEntity.properties

export const FolderSchema = defineEntity({
  name: 'Folder',
  tableName: 'folders',
  properties: {
    ...baseProperties,
    name: p.string().length(256).nullable(),
    metadata: p.text().nullable(),
    metadataKeyId: p.uuid().nullable(),
    metadataKeyType: p.string().length(100).nullable(),
    createdBy: p.uuid().nullable(),
    modifiedBy: p.uuid().nullable(),
  },
})

export type Folder = InferEntity<typeof FolderSchema>
