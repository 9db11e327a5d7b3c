// Avatars: users' pictures, uploaded through their profile, resized once and served by id; and
// the default picture for everyone else. The users plugin embeds them in its answers.
import { definePlugin } from '../../api/plugin.ts'
import { renderDefaultAvatars } from './default-image.ts'
import { defaultAvatars } from './defaults.ts'
import { routes } from './routes.ts'

export { AVATAR_SIZES, type AvatarSize, resizeAvatar } from './image.ts'
export {
  type AvatarColumns,
  avatarJson,
  defaultAvatarUrls,
  joinAvatar,
} from './store.ts'
export { avatarFile, type PreparedAvatar, prepareAvatar, storeAvatar } from './upload.ts'

export default definePlugin({
  name: 'avatars',
  tables: ['avatars'],
  routes,
  init: async (app) => {
    defaultAvatars.set(app, await renderDefaultAvatars())
  },
})
