// The default avatar passbolt's clients show for a user without one, at the URLs they expect
// (`/img/avatar/user.png`, `/img/avatar/user_medium.png`): the styleguide's own default user
// picture, rendered to PNG once at start.
import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import sharp from 'sharp'
import { AVATAR_SIZES, type AvatarSize } from './image.ts'

const styleguide = dirname(
  createRequire(import.meta.url).resolve('passbolt-styleguide/package.json'),
)

export const renderDefaultAvatars = async (): Promise<Record<AvatarSize, Buffer>> => {
  const svg = readFileSync(join(styleguide, 'src/img/avatar/user_default.svg'))
  const render = (edge: number) =>
    sharp(svg, { density: 300 }).resize(edge, edge, { fit: 'cover' }).png().toBuffer()
  return { medium: await render(AVATAR_SIZES.medium), small: await render(AVATAR_SIZES.small) }
}
