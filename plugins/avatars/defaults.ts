// The default avatar images, rendered once when the plugin starts.
import { pluginState } from '../../api/plugin.ts'
import type { AvatarSize } from './image.ts'

export const defaultAvatars = pluginState<Record<AvatarSize, Buffer>>('avatars.defaults')
