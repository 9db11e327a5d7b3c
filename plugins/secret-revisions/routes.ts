// Routes of the password history: the organisation's settings (read by every user, changed by
// administrators) and a resource's revisions for a user who can read it.
import { z } from 'zod'
import { defineRoute } from '../../api/plugin.ts'
import { canAccess, READ } from '../permissions/index.ts'
import { embeddedUsers } from '../users/index.ts'
import { messages } from './messages.ts'
import { type RevisionJson, revisionSchema, settingsBody, settingsSchema } from './schemas.ts'
import { readSettings, resetSettings, revisionsOf, saveSettings } from './service.ts'

const revisionContain = {
  // Filled by the handler's own query.
  secret: {},
  creator: {
    load: async (
      rows: (Omit<RevisionJson, 'creator'> & { creator?: unknown })[],
      { em, app, contain },
    ) => {
      const users = await embeddedUsers(
        em,
        rows.map((row) => row.created_by),
        { profile: Boolean(contain['creator.profile']), appUrl: app.config.appUrl },
      )
      for (const row of rows) row.creator = users.get(row.created_by) ?? null
    },
  },
  'creator.profile': { requires: ['creator'] },
} satisfies NonNullable<NonNullable<Parameters<typeof defineRoute>[0]['query']>['contain']>

export const routes = [
  defineRoute({
    method: 'GET',
    path: '/secret-revisions/settings.json',
    action: 'SecretRevisionsSettingsGet.get',
    summary: 'How many revisions of a secret are kept',
    description:
      '`max_revisions` counts the current secret: 1 (the default) keeps no history; up to 11 keeps the 10 secrets each user had before. `allow_sharing_revisions` is always false: a past secret stays with the user it was encrypted for.',
    auth: 'user',
    // The organisation's settings, the same for every user.
    permission: 'none',
    response: settingsSchema,
    handler: ({ em }) => readSettings(em),
  }),
  ...(['PUT', 'POST'] as const).map((method) =>
    defineRoute({
      method,
      path: '/secret-revisions/settings.json',
      action: 'SecretRevisionsSettingsPost.post',
      summary: 'Set how many revisions of a secret are kept',
      description:
        '`max_revisions` from 1 to 11 and `allow_sharing_revisions` false (400 otherwise). Lowering it prunes the history kept beyond the new count, oldest first.',
      auth: 'admin',
      // Organisation settings are for administrators, which `auth` already requires.
      permission: 'none',
      body: settingsBody,
      validationMessage: messages.validation,
      response: settingsSchema,
      transaction: true,
      handler: ({ em, user, body }) =>
        saveSettings(
          em,
          {
            max_revisions: body.max_revisions,
            allow_sharing_revisions: body.allow_sharing_revisions,
          },
          user.id,
        ),
    }),
  ),
  defineRoute({
    method: 'DELETE',
    path: '/secret-revisions/settings.json',
    action: 'SecretRevisionsSettingsDelete.delete',
    summary: 'Stop keeping password history',
    description:
      'Back to the default (the current secret only); the history kept so far is deleted. Succeeds when nothing was set.',
    auth: 'admin',
    // Organisation settings are for administrators, which `auth` already requires.
    permission: 'none',
    response: z.null(),
    transaction: true,
    handler: async ({ em }) => {
      await resetSettings(em)
      return null
    },
  }),
  defineRoute({
    method: 'GET',
    path: '/secret-revisions/resource/{id}.json',
    action: 'SecretRevisionsResourceGet.get',
    summary: 'A resource’s password history',
    description:
      'The caller’s current secret of the resource as its active revision (`deleted` null), then the secrets they had before, newest first, as many as the settings keep. Only the caller’s own secrets: a user who gained access later sees none of what came before, and a user who lost access keeps nothing. `contain[secret]` adds each revision’s secret, `contain[creator]` (and `creator.profile`) who wrote it. 404 when the caller cannot read the resource.',
    auth: 'user',
    permission: canAccess({
      aco: 'Resource',
      param: 'id',
      level: READ,
      model: 'resource',
      forbidden: 'You are not allowed to access this resource.',
    }),
    params: z.object({ id: z.uuid({ error: messages.invalidResourceId }) }),
    query: { contain: revisionContain },
    response: z.array(revisionSchema),
    handler: ({ em, params, user, query }) =>
      revisionsOf(em, params.id, user.id, Boolean(query.contain.secret)),
  }),
]
