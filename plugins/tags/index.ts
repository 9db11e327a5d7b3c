// Tags: labels on resources, personal to each user or shared (`#name`) with everyone who can
// read the resource. passbolt's Tags plugin (Pro), answered as its v4 form.
import { definePlugin } from '../../api/plugin.ts'
import { userDeletion } from '../users/index.ts'
import { ResourceTagSchema } from './entities/ResourceTag.ts'
import { TagSchema } from './entities/Tag.ts'
import { Migration20261127020000TagKeys } from './migrations/Migration20261127020000TagKeys.ts'
import { routes } from './routes.ts'

export { tagResponse } from './schemas.ts'

import {
  deleteTagsOfUser,
  forgetTagsOfLostPairs,
  forgetUnreadableTagsOfMembers,
} from './service.ts'

export {
  deleteTagsOfResources,
  forgetTagsOfLostAccess,
  forgetUnreadableTagsOf,
  type TagJson,
  tagsOfResources,
  tagsOfResourcesDocuments,
} from './service.ts'
export { resourcesTagged, tagContain } from './taggable.ts'
export { ResourceTagSchema, TagSchema }

export default definePlugin({
  name: 'tags',
  dependsOn: ['permissions', 'settings', 'users'],
  entities: [TagSchema, ResourceTagSchema],
  migrations: [{ name: 'Migration20261127020000TagKeys', class: Migration20261127020000TagKeys }],
  routes,
  settings: () => ({ user: { tags: { enabled: true, version: '1.0.1' } } }),
  // Who can no longer read a resource loses their personal tags on it (shared ones stay).
  accessChanged: async (em, changes) => {
    await forgetTagsOfLostPairs(
      em,
      changes
        .filter((change) => change.aco === 'Resource')
        .flatMap((change) => change.lost.map((userId) => ({ resourceId: change.id, userId }))),
    )
  },
  extensions: [
    userDeletion.provide({
      // Runs after the resources' cleanup (which removed the subject's permissions): a deleted
      // user's personal tags go, and so do those of a deleted group's members on the resources
      // they reached only through it.
      cleanup: async (em, subject) => {
        if (subject.kind === 'User') await deleteTagsOfUser(em, subject.id)
        else await forgetUnreadableTagsOfMembers(em, subject.id)
      },
    }),
  ],
})
