// Turns an uploaded image into the two JPEG sizes passbolt serves, with sharp: the header is read
// first so an image announcing huge dimensions (a decompression bomb) is refused before any pixel
// is decoded; only JPEG, PNG and WebP are accepted, whatever the upload claims to be.
import sharp from 'sharp'

/** Edge lengths passbolt's clients display (its `FileStorage.imageSizes.Avatar`). */
export const AVATAR_SIZES = { medium: 200, small: 80 } as const
export type AvatarSize = keyof typeof AVATAR_SIZES

/** Formats accepted, by what sharp finds in the bytes. */
const FORMATS = new Set(['jpeg', 'png', 'webp'])
export const ACCEPTED_TYPES = ['image/jpeg', 'image/png', 'image/webp'] as const

/** Pixels an upload may decode to: far above any photo, far below what would exhaust memory. */
export const MAX_INPUT_PIXELS = 40_000_000

export type ImageRefusal = 'validMimeType' | 'validImageDimensions'

export class AvatarImageError extends Error {
  override name = 'AvatarImageError'
  constructor(readonly rule: ImageRefusal) {
    super(rule)
  }
}

const inspect = async (data: Buffer) => {
  try {
    return await sharp(data).metadata()
  } catch {
    throw new AvatarImageError('validMimeType')
  }
}

/** The medium and small JPEGs of an upload, or an `AvatarImageError` saying why not. */
export const resizeAvatar = async (data: Buffer): Promise<Record<AvatarSize, Buffer>> => {
  const meta = await inspect(data)
  if (!meta.format || !FORMATS.has(meta.format)) throw new AvatarImageError('validMimeType')
  const pixels = (meta.width ?? 0) * (meta.height ?? 0)
  if (pixels === 0 || pixels > MAX_INPUT_PIXELS) throw new AvatarImageError('validImageDimensions')
  const render = async (edge: number) => {
    try {
      return await sharp(data, { limitInputPixels: MAX_INPUT_PIXELS, failOn: 'error' })
        .rotate()
        .resize(edge, edge, { fit: 'cover' })
        .flatten({ background: '#ffffff' })
        .jpeg({ quality: 85 })
        .toBuffer()
    } catch {
      // Truncated or corrupt pixel data behind a valid header.
      throw new AvatarImageError('validMimeType')
    }
  }
  return { medium: await render(AVATAR_SIZES.medium), small: await render(AVATAR_SIZES.small) }
}
