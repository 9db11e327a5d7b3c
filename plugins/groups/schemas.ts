// Bodies the group routes accept and the shapes they answer, for validation and the API
// reference. Each field of the update's rows is typed and refused with passbolt's rule and
// message for it; what depends on the group (members, secrets needed) is checked by the services.
import { z } from 'zod'
import { cakeBoolean, documented, uuidText, withRule, withRules } from '../../api/validation.ts'
import { deletionTransferSchema } from '../users/index.ts'
import { MAX_SECRETS } from './changes.ts'
import { messages } from './messages.ts'
import { MAX_ROWS, nameRule } from './rules.ts'

/** Ids as stored: the answer is not the place to refuse an id another client wrote. */
const id = z.string().meta({ format: 'uuid' })

const stamp = z.string().nullable()

const membership = z.looseObject({
  id: id,
  group_id: id,
  user_id: id,
  is_admin: z.boolean(),
  created: stamp,
  user: z.record(z.string(), z.unknown()).optional(),
})

export const groupResponse = z.looseObject({
  id: id,
  name: z.string(),
  deleted: z.boolean(),
  created: stamp,
  modified: stamp,
  created_by: id.optional(),
  modified_by: id.optional(),
  user_count: z.number().int().optional(),
  my_group_user: membership.nullable().optional(),
  groups_users: z.array(membership).optional(),
  users: z.array(z.record(z.string(), z.unknown())).optional(),
  modifier: z.record(z.string(), z.unknown()).nullable().optional(),
})

export const dryRunResponse = z.object({
  'dry-run': z.object({
    SecretsNeeded: z.array(z.object({ Secret: z.object({ resource_id: id, user_id: id }) })),
    Secrets: z.array(
      z.object({ Secret: z.array(z.object({ resource_id: id, data: z.string() })) }),
    ),
  }),
})

/** A row that is not an object is read as an empty one: each missing field is reported. */
const asObject = (value: unknown) =>
  typeof value === 'object' && value !== null && !Array.isArray(value) ? value : {}

/** A group's first member: a user and whether they manage it. */
const newMember = z.preprocess(
  asObject,
  z.object({
    user_id: withRule(uuidText, 'uuid', messages.userIdUuid, {
      message: messages.userIdRequired,
      orNull: true,
    }).describe('An active user.'),
    is_admin: withRule(cakeBoolean, 'boolean', messages.isAdminBoolean, {
      message: messages.isAdminRequired,
      orNull: true,
    }).describe('Whether the member manages the group; at least one does.'),
  }),
)

export const createBody = z.object({
  name: withRules(z.string().meta({ minLength: 1, maxLength: 255 }), nameRule).describe(
    'Unique among live groups.',
  ),
  // The list's own faults first, so that an oversized list is refused without reading its rows.
  groups_users: z
    .array(z.unknown(), { error: messages.groupsUsersArray })
    .max(MAX_ROWS, { error: messages.groupsUsersArray })
    .pipe(z.array(newMember))
    .meta(documented(z.array(newMember).max(MAX_ROWS)))
    .optional(),
})

export type CreateBody = z.output<typeof createBody>

/** A list of at most `max` rows; anything else is refused on the list with `message`. */
const listOf = <S extends z.ZodType>(row: S, max: number, message: string) =>
  z
    .array(row, { error: message })
    .refine((rows) => rows.length <= max, { error: message, params: { rule: 'array' } })
    .meta({ maxItems: max })

/** A membership change: add `{user_id, is_admin}`, change `{id, is_admin}`, remove `{id, delete}`. */
const membershipChange = z.object(
  {
    id: withRule(uuidText, 'uuid', messages.idUuid)
      .nullable()
      .optional()
      .describe('The membership to change or remove; absent to add a member.'),
    user_id: withRule(uuidText, 'uuid', messages.userIdUuid)
      .nullable()
      .optional()
      .describe('The user to add.'),
    is_admin: withRule(cakeBoolean, 'boolean', messages.changeBoolean)
      .nullable()
      .optional()
      .describe('Whether the member manages the group.'),
    delete: withRule(cakeBoolean, 'boolean', messages.changeBoolean)
      .nullable()
      .optional()
      .describe('Removes the membership named by `id`.'),
  },
  { error: messages.groupsUsersArray },
)

/**
 * A secret for an added member. A row that is not an object is read as an empty one, so that
 * each of its missing fields is reported, as passbolt does.
 */
const memberSecret = z.preprocess(
  asObject,
  z.object({
    resource_id: withRule(uuidText, 'uuid', messages.secretResourceUuid, {
      message: messages.secretResourceRequired,
      orNull: true,
    }).describe('A password the added member cannot read yet.'),
    user_id: withRule(uuidText, 'uuid', messages.userIdUuid, {
      message: messages.userIdRequired,
      orNull: true,
    }).describe('The added member.'),
    data: withRule(z.string().min(1), '_empty', messages.secretEmpty, {
      message: messages.secretRequired,
      orNull: true,
    }).describe('The password, an ASCII-armored OpenPGP message for that member’s key.'),
  }),
)

export const updateBody = z.object({
  name: withRule(z.string(), 'utf8Extended', messages.nameUtf8)
    .nullable()
    .optional()
    .describe('The new name (administrators only; others’ is ignored).'),
  groups_users: listOf(membershipChange, MAX_ROWS, messages.groupsUsersArray).nullable().optional(),
  secrets: listOf(memberSecret, MAX_SECRETS, messages.secretsArray).nullable().optional(),
})

export const deleteBody = z.object({ transfer: deletionTransferSchema }).optional()
