// What the avatars plugin answers; the validation messages follow passbolt's avatar rules.
import { ACCEPTED_TYPES } from './image.ts'

export const messages = {
  userValidation: 'Could not validate user data.',
  required: 'A file is required.',
  mimeType: `The file mime type should be one of the following: ${ACCEPTED_TYPES.join(', ')}.`,
  maxSize: (bytes: number) => `The file is not valid, or exceeds max size of ${bytes} bytes.`,
  dimensions: 'The image dimensions are too large.',
  notFound: 'The avatar does not exist.',
} as const
