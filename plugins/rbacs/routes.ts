// Routes of the UI rights: every role's rights and the UI actions for administrators, the
// caller's own rights for the clients, and the administrators' changes.
import { z } from 'zod'
import { defineRoute } from '../../api/plugin.ts'
import { messages } from './messages.ts'
import { rbacSchema, uiActionWithFunctionsSchema, updateBody } from './schemas.ts'
import { listRbacs, listRbacsOfRole, listUiActions, loadUiActions, updateRbacs } from './service.ts'

const rbacContain = {
  ui_action: { load: (rows: z.output<typeof rbacSchema>[], { em }) => loadUiActions(em, rows) },
  // passbolt's server-side actions are not kept here: no right names one.
  action: {},
} satisfies NonNullable<NonNullable<Parameters<typeof defineRoute>[0]['query']>['contain']>

export const routes = [
  defineRoute({
    method: 'GET',
    path: '/rbacs.json',
    action: 'RbacsIndex.index',
    summary: 'Every role’s UI rights',
    description:
      'One right per role and UI action: `Allow`, `Deny` or, for `Users.viewWorkspace`, `AllowIfGroupManagerInOneGroup`. Administrators are never restricted and have none. `contain[ui_action]=1` adds the UI action.',
    auth: 'admin',
    // Administrators only, which `auth` already requires.
    permission: 'none',
    query: { contain: rbacContain },
    response: z.array(rbacSchema),
    handler: ({ em }) => listRbacs(em),
  }),
  ...(['PUT', 'POST'] as const).map((method) =>
    defineRoute({
      method,
      path: '/rbacs.json',
      action: 'RbacsUpdate.update',
      summary: 'Change UI rights',
      description:
        'A list of `{id, control_function}` (unique ids), applied all or none: 404 when an id is not a right, 400 when a control function is not one the UI action accepts. The server enforces what a denial closes: sharing (`Share.viewList`, `Folders.share`), changing folders and tags (`Folders.use`, `Tags.use`), comments (`Resources.seeComments`) and starting a mobile transfer (`Mobile.transfer`) answer 403 to a denied role.',
      auth: 'admin',
      // Administrators only, which `auth` already requires.
      permission: 'none',
      body: updateBody,
      validationMessage: messages.validation,
      query: { contain: rbacContain },
      response: z.array(rbacSchema),
      transaction: true,
      handler: ({ em, user, body }) => updateRbacs(em, user.id, body),
    }),
  ),
  defineRoute({
    method: 'GET',
    path: '/rbacs/me.json',
    action: 'RbacsView.viewForCurrentRole',
    summary: 'The caller’s UI rights',
    description:
      'The rights of the caller’s role, which the clients follow to show or hide parts of their interface; none for administrators and guests. `contain[ui_action]=1` adds each UI action.',
    auth: 'public',
    // Only the caller's own role's rights; a guest's role has none.
    permission: 'none',
    query: { contain: rbacContain },
    response: z.array(rbacSchema),
    handler: ({ em, user }) => listRbacsOfRole(em, user?.role ?? 'guest'),
  }),
  defineRoute({
    method: 'GET',
    path: '/rbacs/uiactions.json',
    action: 'UiActionsIndex.index',
    summary: 'The UI actions and the control functions each accepts',
    description: 'passbolt’s list of UI actions, by name.',
    auth: 'admin',
    // Administrators only, which `auth` already requires.
    permission: 'none',
    response: z.array(uiActionWithFunctionsSchema),
    handler: ({ em }) => listUiActions(em),
  }),
]
