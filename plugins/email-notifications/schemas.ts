// What an administrator may send: any of the known settings, each a boolean (or a boolean
// spelled as passbolt's clients and forms spell them); anything else the client sends along
// (`sources_database`, `sources_file`) is dropped.
import { z } from 'zod'
import { NOTIFICATION_DEFAULTS, type NotificationName } from './catalogue.ts'
import { messages } from './messages.ts'

const SPELLINGS: Record<string, boolean> = { true: true, '1': true, false: false, '0': false }

const booleanish = z.preprocess(
  (value) =>
    typeof value === 'string' && value in SPELLINGS
      ? SPELLINGS[value]
      : value === 1 || value === 0
        ? value === 1
        : value,
  z.boolean({ error: messages.notBoolean }),
)

export const notificationChanges = z.object(
  Object.fromEntries(
    Object.keys(NOTIFICATION_DEFAULTS).map((name) => [name, booleanish.optional()]),
  ) as Record<NotificationName, z.ZodOptional<typeof booleanish>>,
)

/** Every switch of the catalogue, and where the values came from (never a file here). */
export const notificationSettingsResponse = z.object({
  sources_database: z.boolean(),
  sources_file: z.boolean(),
  ...Object.fromEntries(Object.keys(NOTIFICATION_DEFAULTS).map((name) => [name, z.boolean()])),
})
