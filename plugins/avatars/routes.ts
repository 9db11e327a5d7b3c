// Avatar images: a user's stored avatar by id and size, and the default one. Both are public,
// as passbolt serves them (the URLs end up in <img> tags), and cacheable: an avatar's id changes
// with every upload.
import { z } from 'zod'
import { HttpError } from '../../api/errors.ts'
import { defineRoute, Reply } from '../../api/plugin.ts'
import { isUuid } from '../../api/uuid.ts'
import { defaultAvatars } from './defaults.ts'
import type { AvatarSize } from './image.ts'
import { messages } from './messages.ts'
import { readAvatarImage } from './store.ts'

const YEAR = 'public, max-age=31536000, immutable'
const DAY = 'public, max-age=86400'

const defaultImage = (path: string, size: AvatarSize) =>
  defineRoute({
    method: 'GET',
    path,
    action: `Avatars.default${size === 'medium' ? 'Medium' : 'Small'}`,
    summary: `The default avatar (${size})`,
    description:
      'The picture shown for users without an avatar, at the URL passbolt clients expect (PNG).',
    produces: 'image/png',
    auth: 'public',
    // The same picture for everyone.
    permission: 'none',
    handler: ({ app }) =>
      new Reply(defaultAvatars.get(app)[size], {
        binary: 'image/png',
        headers: { 'Cache-Control': DAY },
      }),
  })

export const routes = [
  defineRoute({
    method: 'GET',
    path: '/avatars/view/{id}/{size}.jpg',
    action: 'AvatarsView.view',
    summary: "A user's avatar image",
    description:
      'The stored JPEG of the avatar in the size asked (`medium` 200×200, `small` 80×80), as ' +
      '`profile.avatar.url` links it. Public, as passbolt serves it; an unknown id or size is 404. ' +
      'An avatar never changes under its id (a new upload gets a new one), so it is cached for a year.',
    produces: 'image/jpeg',
    auth: 'public',
    // Avatar ids are random and only reach clients inside user answers.
    permission: 'none',
    // Anything but a known avatar and size is a 404, as passbolt answers it.
    params: z.object({ id: z.string(), size: z.string() }),
    handler: async ({ params, em }) => {
      if (!isUuid(params.id) || (params.size !== 'medium' && params.size !== 'small'))
        throw new HttpError(404, messages.notFound)
      const image = await readAvatarImage(em, params.id, params.size)
      if (!image) throw new HttpError(404, messages.notFound)
      return new Reply(image, { binary: 'image/jpeg', headers: { 'Cache-Control': YEAR } })
    },
  }),
  defaultImage('/img/avatar/user_medium.png', 'medium'),
  defaultImage('/img/avatar/user.png', 'small'),
]
