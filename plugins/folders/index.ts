// Folders: shared folders to organise resources and folders, each user with their own view of
// the tree; and moving items in it.
import { definePlugin } from '../../api/plugin.ts'
import { userDeletion } from '../users/index.ts'
import { folderDeletion } from './deletion.ts'
import { FolderSchema } from './entities/Folder.ts'
import { metadataBatchRoutes } from './metadata-batch.ts'
import { routes } from './routes.ts'

export { FolderSchema }

export default definePlugin({
  name: 'folders',
  dependsOn: ['users', 'permissions', 'folder-tree', 'resources', 'metadata'],
  entities: [FolderSchema],
  routes: [...routes, ...metadataBatchRoutes],
  extensions: [userDeletion.provide(folderDeletion)],
  settings: () => ({ user: { folders: { enabled: true, version: '2.0.0' } } }),
})
