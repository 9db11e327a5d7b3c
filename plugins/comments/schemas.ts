// What clients send to write a comment: its content (1 to 255 characters of well-formed text, as
// passbolt bounds it) and, for a reply, the comment it answers.
import { z } from 'zod'
import { isWellFormedText } from '../../api/validation.ts'
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
