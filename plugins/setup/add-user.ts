// `POST /users.json`: an administrator registers a user, who is created inactive and mailed the
// setup invitation, the same path as `api user create` (here because the invitation is setup's).
import { z } from 'zod'
import { badRequest, forbidden } from '../../api/errors.ts'
import { type AccessPolicy, defineRoute } from '../../api/plugin.ts'
import { isWellFormedText } from '../../api/validation.ts'
import { RoleSchema } from '../roles/index.ts'
import { userResponse, viewUser } from '../users/index.ts'
import { registerUser } from './service.ts'

const messages = {
  adminOnly: 'Only administrators can add new users.',
  validation: 'Could not validate user data.',
  added: 'The user was successfully added. This user now need to complete the setup.',
  roleUnknown: 'The role does not exist.',
  roleGuest: 'The role should not be guest.',
} as const

const name = (field: string) =>
  z
    .string({ error: `A ${field} is required.` })
    .trim()
    .min(1, `The ${field} should not be empty.`)
    .max(255, `The ${field} length should be maximum 255 characters.`)
    .refine(isWellFormedText, `The ${field} should be a valid UTF8 string.`)

const addBody = z.object({
  username: z
    .email({ error: 'The username should be a valid email address.' })
    .max(255, 'The username length should be maximum 255 characters.'),
  role_id: z.uuid({ error: 'The role identifier should be a valid UUID.' }).optional(),
  profile: z.object(
    { first_name: name('first name'), last_name: name('last name') },
    { error: 'A profile is required.' },
  ),
})

const administrators: AccessPolicy<undefined, Record<string, never>> = {
  description: 'administrators only',
  refusals: [403],
  refusalMessages: { 403: messages.adminOnly },
  check: async ({ user }) => {
    if (user.role !== 'admin') throw forbidden(messages.adminOnly)
    return undefined
  },
}

export const addUserRoute = defineRoute({
  method: 'POST',
  path: '/users.json',
  action: 'UsersAdd.addPost',
  summary: 'Register a user (administrators)',
  description:
    'Creates an inactive user with a profile (`username` an e-mail address, `profile.first_name`, `profile.last_name`, optional `role_id`, user by default) and mails them the setup invitation. A username already in use is 400 keyed `username.uniqueUsername`; a guest or unknown role 400 keyed by `role_id`; non-administrators 403.',
  auth: 'user',
  permission: administrators,
  body: addBody,
  validationMessage: messages.validation,
  response: userResponse,
  message: messages.added,
  handler: async ({ body, user, em, app }) => {
    let role = 'user'
    if (body.role_id) {
      const found = await em.findOne(RoleSchema, { id: body.role_id })
      if (!found)
        throw badRequest(messages.validation, { role_id: { role_exists: messages.roleUnknown } })
      // Administrators give new users any role but guest, custom roles included.
      if (found.name === 'guest')
        throw badRequest(messages.validation, {
          role_id: { isNotGuestRoleIdRule: messages.roleGuest },
        })
      role = found.name
    }
    const { user: created } = await registerUser(em, app, {
      username: body.username,
      firstName: body.profile.first_name,
      lastName: body.profile.last_name,
      role,
      createdBy: user.id,
    })
    return viewUser(em, app, {
      user: user,
      id: created.id,
      contain: { profile: true, role: true, gpgkey: true, groups_users: true },
      filter: {},
    })
  },
})
