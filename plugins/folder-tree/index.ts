// Folder tree: where each item sits in each user's own tree of folders. It follows access
// (an item shared with a user enters their tree, an item they lose leaves it); the resources
// and folders plugins place, move and remove items through it.
import { definePlugin } from '../../api/plugin.ts'
import { userDeletion } from '../users/index.ts'
import { FolderRelationSchema } from './entities/FolderRelation.ts'
import {
  addResourcesToTrees,
  addToTrees,
  removeFromTrees,
  removeFromTreesOfUser,
  removeResourcesFromTrees,
} from './tree.ts'

export * from './columns.ts'
export {
  addToTrees,
  ancestorsInTree,
  canReadFolderSql,
  type ItemModel,
  moveInTrees,
  parentInTree,
  placeItem,
  readersInTrees,
  removeEverywhere,
  removeFromTrees,
  wouldCycle,
} from './tree.ts'
export { FolderRelationSchema }

export default definePlugin({
  name: 'folder-tree',
  dependsOn: ['permissions', 'users'],
  entities: [FolderRelationSchema],
  accessChanged: async (em, changes) => {
    // Resources need no cascade: all of them in a few statements; folders one by one.
    const resources = changes.filter((change) => change.aco === 'Resource')
    const pairs = (side: 'gained' | 'lost') =>
      resources.flatMap((change) => change[side].map((userId) => ({ id: change.id, userId })))
    await removeResourcesFromTrees(em, pairs('lost'))
    await addResourcesToTrees(em, pairs('gained'))
    for (const change of changes) {
      if (change.aco !== 'Folder') continue
      const item = { model: change.aco, id: change.id }
      await removeFromTrees(em, item, change.lost)
      await addToTrees(em, item, change.gained)
    }
  },
  extensions: [
    userDeletion.provide({
      // A deleted user's tree goes with them.
      cleanup: async (em, subject) => {
        if (subject.kind === 'User') await removeFromTreesOfUser(em, subject.id)
      },
    }),
  ],
})
