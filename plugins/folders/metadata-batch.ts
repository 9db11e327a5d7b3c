// The administrators' batches over every folder of the organisation: upgrading v4 folders to
// v5 (the extension encrypts their names), and re-encrypting v5 folders whose metadata key
// expired to the new key.
import { z } from 'zod'
import { formatTimestamp } from '../../api/envelope.ts'
import { defineMetadataBatchRoutes } from '../metadata/index.ts'
import { permissionContains, sharedItemIds } from '../permissions/index.ts'
import { messages } from './messages.ts'
import { FOLDER_COLUMNS, type FolderRow } from './query.ts'

type Row = Pick<FolderRow, (typeof FOLDER_COLUMNS)[number]>

const batchJson = (row: Row) => ({
  id: row.id,
  ...(row.metadata === null
    ? { name: row.name }
    : {
        metadata: row.metadata,
        metadata_key_id: row.metadata_key_id,
        metadata_key_type: row.metadata_key_type,
      }),
  created: formatTimestamp(row.created),
  modified: formatTimestamp(row.modified),
  created_by: row.created_by,
  modified_by: row.modified_by,
})

export const metadataBatchRoutes = defineMetadataBatchRoutes<Row>({
  table: 'folders',
  sharedIds: (knex) => sharedItemIds(knex, 'Folder'),
  noun: 'Folders',
  v4Items: 'v4 folders (clear names)',
  columns: FOLDER_COLUMNS,
  validationMessage: messages.validation,
  // A v5 folder's name lives only in its encrypted metadata.
  prepareUpgrade: async () => () => ({ name: null }),
  json: batchJson,
  itemSchema: z.looseObject({ id: z.string() }),
  upgradeQuery: {
    contain: { permissions: permissionContains.permissions },
    filter: { 'is-shared': 'boolean' },
  },
})
