// Profile pictures: passbolt keeps each in its database (the 200-pixel JPEG) and a cache of both
// sizes in its `tmp/avatars/<avatar id>/` folder. Keyward stores both sizes in the row, so each
// picture is resized again from the database's copy, or from the folder (`--images-dir`) when
// the database has none.
import { existsSync, readFileSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { resizeAvatar } from '../avatars/index.ts'
import type { PlanContext } from './plan-context.ts'
import { date, type TargetRow } from './plan-values.ts'
import type { SourceData, SourceRow } from './source.ts'

/** A cached picture bigger than this is not one passbolt wrote. */
const MAX_IMAGE_FILE = 5 * 1024 * 1024

const UUID = /^[0-9a-f-]{36}$/i

/** The picture's bytes: the database's, or the cached medium JPEG in the images folder. */
const pictureOf = (avatar: SourceRow, imagesDir: string | undefined): Buffer | string => {
  const data = avatar.data
  if (Buffer.isBuffer(data) && data.length > 0) return data
  if (!imagesDir) return 'the database holds no picture: pass --images-dir'
  // The id was checked to be a UUID, so the path cannot leave the folder.
  if (!UUID.test(String(avatar.id))) return 'its id is not a UUID'
  const path = join(imagesDir, String(avatar.id), 'medium.jpg')
  if (!existsSync(path)) return `neither the database nor ${path} holds its picture`
  if (statSync(path).size > MAX_IMAGE_FILE) return `${path} is too large for a picture`
  return readFileSync(path)
}

/** One picture per profile, the latest, as passbolt serves; the others are reported. */
export const planAvatars = async (
  source: SourceData,
  context: PlanContext,
  imagesDir: string | undefined,
): Promise<TargetRow[]> => {
  const latest = new Map<string, SourceRow>()
  for (const avatar of source.avatars) {
    const profileId = String(avatar.profile_id)
    if (!context.profileIds.has(profileId)) {
      context.skip('avatars', avatar, `its profile ${profileId} is not migrated`)
      continue
    }
    const other = latest.get(profileId)
    const newer =
      !other || (date(avatar.modified)?.getTime() ?? 0) > (date(other.modified)?.getTime() ?? 0)
    const older = newer ? other : avatar
    if (older) context.skip('avatars', older, `profile ${profileId} has a newer picture`)
    if (newer) latest.set(profileId, avatar)
  }
  const rows: TargetRow[] = []
  for (const avatar of latest.values()) {
    const picture = pictureOf(avatar, imagesDir)
    if (typeof picture === 'string') {
      context.skip('avatars', avatar, picture)
      continue
    }
    let sizes: Awaited<ReturnType<typeof resizeAvatar>>
    try {
      sizes = await resizeAvatar(picture)
    } catch {
      context.skip('avatars', avatar, 'its picture is not a JPEG, PNG or WebP image Keyward reads')
      continue
    }
    rows.push({
      id: avatar.id,
      profile_id: avatar.profile_id,
      data: sizes.medium,
      small: sizes.small,
      created: date(avatar.created),
      modified: date(avatar.modified),
    })
  }
  return rows
}
