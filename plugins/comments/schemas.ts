// What clients send to write a comment: its content (1 to 255 characters of well-formed text, as
// passbolt bounds it) and, for a reply, the comment it answers.
import { z } from 'zod'
import { isWellFormedText } from '../../api/validation.ts'
import { embeddedUserJson } from '../users/index.ts'
import { messages } from './messages.ts'

const content = z
  .string({
    error: (issue) =>
      issue.input === undefined
        ? messages.contentRequired
        : issue.input === null
          ? messages.contentEmpty
          : messages.contentUtf8,
  })
  .superRefine((text, context) => {
    const rule = (name: string, message: string) =>
      context.addIssue({ code: 'custom', message, params: { rule: name } })
    if (text.length === 0) rule('_empty', messages.contentEmpty)
    else if (!isWellFormedText(text)) rule('utf8Extended', messages.contentUtf8)
    // Characters, not UTF-16 units, as passbolt and the column count them.
    else if ([...text].length > 255) rule('lengthBetween', messages.contentLength)
  })

export const createBody = z.looseObject({
  content,
  parent_id: z.uuid({ error: messages.parentUuid }).nullable().optional(),
})

export const updateBody = z.looseObject({ content })

export type CreateBody = z.output<typeof createBody>
export type UpdateBody = z.output<typeof updateBody>

const commentFields = {
  id: z.string().meta({ format: 'uuid' }),
  parent_id: z.string().nullable(),
  foreign_key: z.string(),
  foreign_model: z.literal('Resource'),
  content: z.string(),
  created: z.string().nullable(),
  modified: z.string().nullable(),
  created_by: z.string().nullable(),
  modified_by: z.string().nullable(),
  user_id: z.string(),
  creator: embeddedUserJson.nullable().optional(),
  modifier: embeddedUserJson.nullable().optional(),
}

/** One comment as created or edited. */
export const commentResponse = z.object(commentFields)

type CommentThreadJson = z.output<typeof commentResponse> & { children: CommentThreadJson[] }

/** A comment with its replies, as the threads of a resource are answered. */
export const commentThreadResponse: z.ZodType<CommentThreadJson> = z.object({
  ...commentFields,
  get children() {
    return z.array(commentThreadResponse)
  },
})

/** The threads of a resource (recursive, so the reference's example is given). */
export const commentThreadsResponse = z.array(commentThreadResponse).meta({
  examples: [
    [
      {
        id: 'a4b3c2d1-0000-4000-8000-000000000001',
        parent_id: null,
        foreign_key: 'a4b3c2d1-0000-4000-8000-0000000000aa',
        foreign_model: 'Resource',
        content: 'Rotated after the audit.',
        created: '2026-01-02T03:04:05+00:00',
        modified: '2026-01-02T03:04:05+00:00',
        created_by: 'a4b3c2d1-0000-4000-8000-0000000000bb',
        modified_by: 'a4b3c2d1-0000-4000-8000-0000000000bb',
        user_id: 'a4b3c2d1-0000-4000-8000-0000000000bb',
        children: [],
      },
    ],
  ],
})
