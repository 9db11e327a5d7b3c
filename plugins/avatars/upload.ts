// An avatar upload on a user's profile: checked (present, within the configured size, a real
// JPEG, PNG or WebP of sane dimensions), resized and stored. Refusals are the 400 passbolt
// answers, keyed by `profile.avatar.file` and rule.
import type { EntityManager } from '@mikro-orm/postgresql'
import { z } from 'zod'
import type { AppContext } from '../../api/app.ts'
import { UploadedFile } from '../../api/body.ts'
import { badRequest } from '../../api/errors.ts'
import { ACCEPTED_TYPES, AvatarImageError, resizeAvatar } from './image.ts'
import { messages } from './messages.ts'
import { saveAvatar } from './store.ts'

const refuse = (rule: string, message: string) =>
  badRequest(messages.userValidation, { profile: { avatar: { file: { [rule]: message } } } })

/**
 * An uploaded picture as a request carries it (`profile[avatar][file]` of a multipart body): a
 * non-empty file part, or one cut at the size limit (refused by `prepareAvatar` with its rule).
 */
export const avatarFile = z
  .custom<UploadedFile>(
    (value) => value instanceof UploadedFile && (value.data.length > 0 || value.truncated),
    { error: messages.required, params: { rule: '_required' } },
  )
  .meta({
    type: 'string',
    format: 'binary',
    contentMediaType: 'image/*',
    description: `The picture (${ACCEPTED_TYPES.join(', ')}), a file part of a multipart/form-data body.`,
  })

/** Checks and resizes the upload before any write, so a refusal changes nothing. */
export const prepareAvatar = async (app: AppContext, file: UploadedFile) => {
  if (file.truncated) throw refuse('validUploadedFile', messages.maxSize(app.config.avatarMaxSize))
  try {
    return await resizeAvatar(file.data)
  } catch (error) {
    if (!(error instanceof AvatarImageError)) throw error
    throw error.rule === 'validMimeType'
      ? refuse('validMimeType', messages.mimeType)
      : refuse('validImageDimensions', messages.dimensions)
  }
}

export type PreparedAvatar = Awaited<ReturnType<typeof prepareAvatar>>

export const storeAvatar = (em: EntityManager, profileId: string, images: PreparedAvatar) =>
  saveAvatar(em, profileId, images)
