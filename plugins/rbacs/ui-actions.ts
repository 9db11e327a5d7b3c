// The parts of the clients' interface an administrator can allow or deny per role, passbolt's
// list, with the control functions each accepts.
import { v5 as uuidv5 } from 'uuid'

export const ALLOW = 'Allow'
export const DENY = 'Deny'
export const ALLOW_IF_GROUP_MANAGER = 'AllowIfGroupManagerInOneGroup'
export const CONTROL_FUNCTIONS = [ALLOW, DENY, ALLOW_IF_GROUP_MANAGER] as const
export type ControlFunction = (typeof CONTROL_FUNCTIONS)[number]

const allowOrDeny: readonly ControlFunction[] = [ALLOW, DENY]

export const UI_ACTIONS: Readonly<Record<string, readonly ControlFunction[]>> = {
  'Resources.import': allowOrDeny,
  'Resources.export': allowOrDeny,
  'Secrets.preview': allowOrDeny,
  'Secrets.copy': allowOrDeny,
  'Resources.toggleDescription': allowOrDeny,
  'Resources.seeComments': allowOrDeny,
  'Resources.seeActivities': allowOrDeny,
  'Folders.use': allowOrDeny,
  'Resources.filterByGroups': allowOrDeny,
  'Tags.use': allowOrDeny,
  'Share.viewList': allowOrDeny,
  'Share.viewUsersInAutocomplete': allowOrDeny,
  'Share.viewGroupsInAutocomplete': allowOrDeny,
  'InFormMenu.use': allowOrDeny,
  'Resources.editPasswordGeneratorSettings': allowOrDeny,
  'Users.viewWorkspace': [ALLOW, DENY, ALLOW_IF_GROUP_MANAGER],
  'Users.viewGroups': allowOrDeny,
  'Mobile.transfer': allowOrDeny,
  'Desktop.transfer': allowOrDeny,
  'Folders.share': allowOrDeny,
}

const NAMESPACE = '9b3a0c6e-3f0e-4a57-8d8e-2c1d7f0f5a11'

/** Each UI action's id, the same on every server. */
export const uiActionId = (name: string) => uuidv5(name, NAMESPACE)

const WRITE = ['PUT', 'POST', 'DELETE']
const ANY = ['GET', ...WRITE]

/**
 * The routes a denied UI action closes on the server too: the clients hide the part, and a
 * request made anyway gets 403. Reading routes the clients call in the background (folder and
 * tag lists) stay open; what the part changes or reveals does not.
 */
const CONTROLLED: readonly [methods: readonly string[], path: string, uiAction: string][] = [
  [ANY, '/share/resource/{id}.json', 'Share.viewList'],
  [ANY, '/share/simulate/resource/{id}.json', 'Share.viewList'],
  [ANY, '/share/search-aros.json', 'Share.viewList'],
  [ANY, '/share/folder/{id}.json', 'Folders.share'],
  [ANY, '/share/simulate/folder/{id}.json', 'Folders.share'],
  [WRITE, '/folders.json', 'Folders.use'],
  [WRITE, '/folders/{id}.json', 'Folders.use'],
  [WRITE, '/move/resource/{id}.json', 'Folders.use'],
  [WRITE, '/move/folder/{id}.json', 'Folders.use'],
  [WRITE, '/tags/{id}.json', 'Tags.use'],
  [ANY, '/comments/resource/{resourceId}.json', 'Resources.seeComments'],
  [ANY, '/comments/{id}.json', 'Resources.seeComments'],
  [['POST'], '/mobile/transfers.json', 'Mobile.transfer'],
]

const controlled = new Map(
  CONTROLLED.flatMap(([methods, path, uiAction]) =>
    methods.map((method) => [`${method} ${path}`, uiAction] as const),
  ),
)

/** The UI action that controls a route, if any. */
export const uiActionOfRoute = (method: string, path: string) => controlled.get(`${method} ${path}`)
