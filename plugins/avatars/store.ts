// Stored avatars: one per profile (an upload replaces it, so its id and URLs change and the
// images can be cached for good), and how user queries pick it up in the same statement.
import type { EntityManager, Knex } from '@mikro-orm/postgresql'
import { formatTimestamp } from '../../api/envelope.ts'
import { executeStatement, selectRows } from '../../api/orm.ts'
import type { AvatarSize } from './image.ts'

/** Replaces the profile's avatar with these images; returns the new avatar's id. */
export const saveAvatar = async (
  em: EntityManager,
  profileId: string,
  images: Record<AvatarSize, Buffer>,
): Promise<string> => {
  const id = crypto.randomUUID()
  const now = new Date()
  await executeStatement(em, (knex) =>
    knex('avatars')
      .insert({
        id,
        profile_id: profileId,
        data: images.medium,
        small: images.small,
        created: now,
        modified: now,
      })
      .onConflict('profile_id')
      .merge(['id', 'data', 'small', 'created', 'modified']),
  )
  return id
}

/** The stored image of that size, or undefined. */
export const readAvatarImage = async (
  em: EntityManager,
  id: string,
  size: AvatarSize,
): Promise<Buffer | undefined> => {
  const [row] = await selectRows<{ image: Buffer }>(em, (knex) =>
    knex('avatars')
      .where({ id })
      .select(`${size === 'medium' ? 'data' : 'small'} as image`),
  )
  return row?.image
}

/** Columns a user query adds (after joining `profiles`) to answer each profile's avatar. */
export const joinAvatar = (query: Knex.QueryBuilder, profileId = 'profiles.id') =>
  query
    .leftJoin('avatars', 'avatars.profile_id', profileId)
    .select(
      'avatars.id as avatar_id',
      'avatars.created as avatar_created',
      'avatars.modified as avatar_modified',
    )

export interface AvatarColumns {
  avatar_id: string | null
  avatar_created: string | null
  avatar_modified: string | null
}

/** The default avatar's URLs, until the user uploads one. */
export const defaultAvatarUrls = (appUrl: string) => ({
  medium: `${appUrl}img/avatar/user_medium.png`,
  small: `${appUrl}img/avatar/user.png`,
})

/** A profile's `avatar` as passbolt answers it, from the columns `joinAvatar` added. */
export const avatarJson = (appUrl: string, row: Partial<AvatarColumns>) =>
  row.avatar_id
    ? {
        id: row.avatar_id,
        created: formatTimestamp(row.avatar_created ?? null),
        modified: formatTimestamp(row.avatar_modified ?? null),
        url: {
          medium: `${appUrl}avatars/view/${row.avatar_id}/medium.jpg`,
          small: `${appUrl}avatars/view/${row.avatar_id}/small.jpg`,
        },
      }
    : { url: defaultAvatarUrls(appUrl) }
