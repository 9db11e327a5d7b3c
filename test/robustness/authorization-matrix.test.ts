// Who may call what: every route, for every caller's relation to the item it names, answers as
// the table below declares. A route without a row fails the test, so a new route cannot ship
// without saying who may call it. The callers are real accounts on GPGAuth cookie sessions; the
// disabled and the deleted ones signed in before they were suspended or deleted.
//
// `ok` means the call got past authorization: any answer but 401, 403 and 404 (and never a 5xx);
// a 400 counts, as the bodies sent are empty (the access check runs before validation). A
// route that can only succeed once (a deletion) gets a fresh copy of its items for every cell.
import test from 'ava'
import { registerUser } from '../../plugins/setup/index.ts'
import { changeAndWait, startTestApi, type TestApi } from '../helpers/api.ts'
import { generateUserKey, gpgAuthLogin, TestClient } from '../helpers/client.ts'
import { createMetadataKey, generateMetadataKey, privateKeyCopy } from '../helpers/metadata.ts'
import {
  createPassword,
  encryptFor,
  type Member,
  makeGroup,
  sqlOf,
  team,
} from '../helpers/vault.ts'

const RELATIONS = [
  'guest',
  'user',
  'owner',
  'updater',
  'reader',
  'admin',
  'disabled',
  'deleted',
] as const
type Relation = (typeof RELATIONS)[number]
type Expected = 'ok' | 401 | 403 | 404
/** What a path parameter names: an item of the fixture, or a literal. */
type Target =
  | 'resource'
  | 'folder'
  | 'comment'
  | 'tag'
  | 'sharedTag'
  | 'favorite'
  | 'group'
  | 'ownerId'
  | 'throwawayUser'
  | 'gpgkey'
  | 'resourceType'
  | 'transfer'
  | 'ownerSessionKey'
  | 'ownerPrivateKey'
  | 'uuid'
  | { literal: string }

interface Row {
  expect: Record<Relation, Expected>
  params?: Record<string, Target>
  body?: unknown | ((client: TestClient) => unknown)
  /** The call succeeds once: each cell gets fresh items. */
  fresh?: boolean
  /** The call ends the caller's session: they sign in again after it. */
  endsSession?: boolean
}

const row = (expect: Partial<Record<Relation, Expected>>, base: Record<Relation, Expected>) => ({
  ...base,
  ...expect,
})
/** Anyone, signed in or not. */
const PUBLIC: Record<Relation, Expected> = {
  guest: 'ok',
  user: 'ok',
  owner: 'ok',
  updater: 'ok',
  reader: 'ok',
  admin: 'ok',
  disabled: 'ok',
  deleted: 'ok',
}
/** Any signed-in account, whatever its relation to the item. */
const SIGNED_IN: Record<Relation, Expected> = { ...PUBLIC, guest: 401, disabled: 401, deleted: 401 }
const ADMIN_ONLY: Record<Relation, Expected> = {
  ...SIGNED_IN,
  user: 403,
  owner: 403,
  updater: 403,
  reader: 403,
}
/** An item seen through permissions: 404 without any, 403 below the level. */
const item = (level: 'read' | 'update' | 'owner'): Record<Relation, Expected> => ({
  ...SIGNED_IN,
  user: 404,
  admin: 404,
  updater: level === 'owner' ? 403 : 'ok',
  reader: level === 'read' ? 'ok' : 403,
})

/** The owner's own item (a favorite, a personal tag, a cached session key): others get 404. */
const OWN: Record<Relation, Expected> = row(
  { user: 404, updater: 404, reader: 404, admin: 404 },
  SIGNED_IN,
)

const pub = (params?: Row['params']): Row => ({ expect: PUBLIC, params })
const signedIn = (params?: Row['params'], extra: Partial<Row> = {}): Row => ({
  expect: SIGNED_IN,
  params,
  ...extra,
})
const admin = (params?: Row['params'], extra: Partial<Row> = {}): Row => ({
  expect: ADMIN_ONLY,
  params,
  ...extra,
})

const MFA_ERROR: Record<Relation, Expected> = {
  ...SIGNED_IN,
  user: 403,
  owner: 403,
  updater: 403,
  reader: 403,
  admin: 403,
}
const FORM_TOKEN = (client: TestClient) => ({ _csrfToken: client.cookies.get('csrfToken') })

const TOKEN = { userId: 'uuid', tokenId: 'uuid' } as const
/** An OpenPGP message addressed to nobody here: past the schemas, refused by the handlers. */
let sealed: Promise<string> | undefined
const SEALED = async () => {
  sealed ??= generateUserKey('nobody@keyward.test').then((key) => encryptFor('{}', [key]))
  return { data: await sealed }
}
const TRANSFER_MOVE = { status: 'in progress', current_page: 1 }
const R = { id: 'resource' } as const
const F = { id: 'folder' } as const

/** The table: one row per route. */
const MATRIX: Record<string, Row> = {
  'GET /settings.json': pub(),
  'GET /roles.json': signedIn(),
  // Roles and the rights of each: administrators only; a random role id is not found.
  'POST /roles.json': admin(),
  'PUT /roles/{id}.json': admin({ id: 'uuid' }),
  'POST /roles/{id}.json': admin({ id: 'uuid' }),
  'DELETE /roles/{id}.json': { expect: row({ admin: 404 }, ADMIN_ONLY), params: { id: 'uuid' } },
  'GET /rbacs.json': admin(),
  'PUT /rbacs.json': admin(),
  'POST /rbacs.json': admin(),
  'GET /rbacs/uiactions.json': admin(),
  // The caller's own role's rights: a guest's role has none, an empty list rather than a refusal.
  'GET /rbacs/me.json': pub(),
  // Public, and alike for everyone: an avatar nobody uploaded is not found.
  'GET /avatars/view/{id}/{size}.jpg': {
    expect: Object.fromEntries(RELATIONS.map((r) => [r, 404])) as Record<Relation, Expected>,
    params: { id: 'uuid', size: { literal: 'medium' } },
  },
  'GET /img/avatar/user_medium.png': pub(),
  'GET /img/avatar/user.png': pub(),
  'GET /users.json': signedIn(),
  'GET /users/{id}.json': signedIn({ id: 'ownerId' }),
  // Users edit themselves; administrators edit anyone.
  'PUT /users/{id}.json': {
    expect: row({ user: 403, updater: 403, reader: 403 }, SIGNED_IN),
    params: { id: 'ownerId' },
  },
  'POST /users/{id}.json': {
    expect: row({ user: 403, updater: 403, reader: 403 }, SIGNED_IN),
    params: { id: 'ownerId' },
  },
  'DELETE /users/{id}/dry-run.json': admin({ id: 'throwawayUser' }),
  'DELETE /users/{id}.json': admin({ id: 'throwawayUser' }, { fresh: true }),
  'GET /permissions/resource/{id}.json': { expect: item('read'), params: R },
  'GET /resource-types.json': signedIn(),
  'GET /resource-types/{id}.json': signedIn({ id: 'resourceType' }),
  // A random id: administrators get past the role check, then it is not found.
  'DELETE /resource-types/{id}.json': {
    expect: row({ admin: 404 }, ADMIN_ONLY),
    params: { id: 'uuid' },
  },
  'PUT /resource-types/{id}.json': admin({ id: 'uuid' }),
  'GET /secrets/resource/{resourceId}.json': {
    expect: item('read'),
    params: { resourceId: 'resource' },
  },
  'GET /secret-revisions/settings.json': signedIn(),
  'PUT /secret-revisions/settings.json': admin(),
  'POST /secret-revisions/settings.json': admin(),
  'DELETE /secret-revisions/settings.json': admin(),
  'GET /secret-revisions/resource/{id}.json': { expect: item('read'), params: R },
  'GET /groups.json': signedIn(),
  'GET /groups/{id}.json': signedIn({ id: 'group' }),
  'POST /groups.json': admin(),
  // Administrators and the group's managers (the owner manages it; the reader is a member).
  'PUT /groups/{id}.json': {
    expect: row({ user: 403, updater: 403, reader: 403 }, SIGNED_IN),
    params: { id: 'group' },
  },
  'POST /groups/{id}.json': {
    expect: row({ user: 403, updater: 403, reader: 403 }, SIGNED_IN),
    params: { id: 'group' },
  },
  'PUT /groups/{id}/dry-run.json': {
    expect: row({ user: 403, updater: 403, reader: 403 }, SIGNED_IN),
    params: { id: 'group' },
  },
  'POST /groups/{id}/dry-run.json': {
    expect: row({ user: 403, updater: 403, reader: 403 }, SIGNED_IN),
    params: { id: 'group' },
  },
  'DELETE /groups/{id}.json': {
    expect: row({ user: 403, updater: 403, reader: 403 }, SIGNED_IN),
    params: { id: 'group' },
    fresh: true,
  },
  'DELETE /groups/{id}/dry-run.json': {
    expect: row({ user: 403, updater: 403, reader: 403 }, SIGNED_IN),
    params: { id: 'group' },
  },
  'GET /gpgkeys.json': signedIn(),
  'GET /gpgkeys/{id}.json': signedIn({ id: 'gpgkey' }),
  'POST /favorites/resource/{resourceId}.json': {
    expect: item('read'),
    params: { resourceId: 'resource' },
    fresh: true,
  },
  // A favorite is its owner's: anyone else's id is simply not found.
  'DELETE /favorites/{id}.json': {
    expect: OWN,
    params: { id: 'favorite' },
    fresh: true,
  },
  'GET /tags.json': signedIn(),
  // Replaces the caller's tags on the resource (the owner's personal tag goes).
  'POST /tags/{id}.json': { expect: item('read'), params: { id: 'resource' }, fresh: true },
  // A personal tag is its owner's; others do not see it.
  'PUT /tags/{id}.json': {
    expect: OWN,
    params: { id: 'tag' },
  },
  'DELETE /tags/{id}.json': {
    expect: OWN,
    params: { id: 'tag' },
    fresh: true,
  },
  'GET /comments/resource/{resourceId}.json': {
    expect: item('read'),
    params: { resourceId: 'resource' },
  },
  'POST /comments/resource/{resourceId}.json': {
    expect: item('read'),
    params: { resourceId: 'resource' },
  },
  // The author edits and deletes their comment while they can read the resource.
  'PUT /comments/{id}.json': {
    expect: row({ user: 404, admin: 404, updater: 403, reader: 403 }, SIGNED_IN),
    params: { id: 'comment' },
  },
  // As passbolt: a comment someone else wrote cannot be deleted, and is not found.
  'DELETE /comments/{id}.json': {
    expect: row({ user: 404, admin: 404, updater: 404, reader: 404 }, SIGNED_IN),
    params: { id: 'comment' },
    fresh: true,
  },
  'GET /resources.json': signedIn(),
  'GET /resources/{id}.json': { expect: item('read'), params: R },
  'POST /resources.json': signedIn(),
  'PUT /resources/{id}.json': { expect: item('update'), params: R },
  'POST /resources/{id}.json': { expect: item('update'), params: R },
  'DELETE /resources/{id}.json': { expect: item('update'), params: R, fresh: true },
  'PUT /share/resource/{id}.json': { expect: item('owner'), params: R },
  'POST /share/resource/{id}.json': { expect: item('owner'), params: R },
  'POST /share/simulate/resource/{id}.json': { expect: item('owner'), params: R },
  'GET /share/search-aros.json': signedIn(),
  'GET /folders.json': signedIn(),
  'GET /folders/{id}.json': { expect: item('read'), params: F },
  'POST /folders.json': signedIn(),
  'PUT /folders/{id}.json': { expect: item('update'), params: F },
  'POST /folders/{id}.json': { expect: item('update'), params: F },
  'DELETE /folders/{id}.json': { expect: item('update'), params: F, fresh: true },
  'PUT /share/folder/{id}.json': { expect: item('owner'), params: F },
  'POST /share/folder/{id}.json': { expect: item('owner'), params: F },
  'POST /share/simulate/folder/{id}.json': { expect: item('owner'), params: F },
  // A move to the caller's root: allowed with update on the item's shared parent (none here).
  'PUT /move/resource/{id}.json': {
    expect: row({ reader: 'ok' }, item('read')),
    params: R,
    body: { folder_parent_id: null },
  },
  'POST /move/resource/{id}.json': {
    expect: row({ reader: 'ok' }, item('read')),
    params: R,
    body: { folder_parent_id: null },
  },
  'PUT /move/folder/{id}.json': {
    expect: row({ reader: 'ok' }, item('read')),
    params: F,
    body: { folder_parent_id: null },
  },
  'POST /move/folder/{id}.json': {
    expect: row({ reader: 'ok' }, item('read')),
    params: F,
    body: { folder_parent_id: null },
  },
  'GET /healthcheck/status.json': pub(),
  'GET /healthcheck.json': admin(),
  // Prometheus does not sign in: from an allowed address (this loopback) anyone reads it.
  'GET /metrics': pub(),
  'GET /auth/verify.json': pub(),
  'POST /auth/verify.json': pub(),
  'POST /auth/login.json': pub(),
  'GET /auth/is-authenticated.json': signedIn(),
  'POST /auth/logout.json': { ...pub(), endsSession: true },
  'GET /auth/logout.json': { ...pub(), endsSession: true },
  'GET /users/csrf-token.json': pub(),
  'GET /auth/jwt/rsa.json': pub(),
  'GET /auth/jwt/jwks.json': pub(),
  'POST /auth/jwt/login.json': pub(),
  'POST /auth/jwt/refresh.json': pub(),
  // A JWT route: a cookie session is no JWT sign-in, whoever holds it.
  'POST /auth/jwt/logout.json': {
    expect: Object.fromEntries(RELATIONS.map((r) => [r, 401])) as Record<Relation, Expected>,
  },
  'GET /mfa/verify/totp.json': signedIn(),
  'POST /mfa/verify/totp.json': signedIn(),
  'GET /mfa/verify/yubikey.json': signedIn(),
  'POST /mfa/verify/yubikey.json': signedIn(),
  'GET /mfa/verify/totp': pub(),
  // The page's form carries its CSRF token in the body.
  'POST /mfa/verify/totp': { ...pub(), body: FORM_TOKEN },
  'GET /mfa/verify/yubikey': pub(),
  'POST /mfa/verify/yubikey': { ...pub(), body: FORM_TOKEN },
  // Where a sign-in that still owes a second factor is sent: 403 for any signed-in caller.
  'GET /mfa/verify/error.json': { expect: MFA_ERROR },
  'POST /mfa/verify/error.json': { expect: MFA_ERROR },
  'PUT /mfa/verify/error.json': { expect: MFA_ERROR },
  'DELETE /mfa/verify/error.json': { expect: MFA_ERROR },
  'GET /mfa/setup/select.json': signedIn(),
  'GET /mfa/setup/totp.json': signedIn(),
  'GET /mfa/setup/yubikey.json': signedIn(),
  // Duo is not offered: the same 400 for everyone, whoever asks.
  'POST /mfa/setup/duo.json': pub(),
  'DELETE /mfa/setup/duo.json': pub(),
  'POST /mfa/setup/duo/prompt.json': pub(),
  'GET /mfa/setup/duo/callback.json': pub(),
  'GET /mfa/verify/duo.json': pub(),
  'POST /mfa/verify/duo.json': pub(),
  'POST /mfa/verify/duo/prompt.json': pub(),
  'GET /mfa/verify/duo/callback.json': pub(),
  'POST /mfa/setup/totp.json': signedIn(),
  'POST /mfa/setup/yubikey.json': signedIn(),
  'DELETE /mfa/setup/totp.json': signedIn(),
  'DELETE /mfa/setup/yubikey.json': signedIn(),
  'DELETE /mfa/setup/{userId}.json': admin({ userId: 'ownerId' }),
  'GET /mfa/settings.json': admin(),
  'PUT /mfa/settings.json': admin(),
  'POST /mfa/settings.json': admin(),
  'POST /users.json': admin(),
  'GET /setup/start/{userId}/{tokenId}.json': pub(TOKEN),
  'GET /setup/install/{userId}/{tokenId}.json': pub(TOKEN),
  'PUT /users/validateAccount/{userId}.json': pub({ userId: 'uuid' }),
  'POST /users/validateAccount/{userId}.json': pub({ userId: 'uuid' }),
  'PUT /setup/complete/{userId}.json': pub({ userId: 'uuid' }),
  'PUT /setup/recover/complete/{userId}.json': pub({ userId: 'uuid' }),
  'POST /setup/complete/{userId}.json': pub({ userId: 'uuid' }),
  'POST /setup/recover/complete/{userId}.json': pub({ userId: 'uuid' }),
  'POST /users/recover.json': pub(),
  'GET /setup/recover/start/{userId}/{tokenId}.json': pub(TOKEN),
  'POST /setup/recover/abort/{userId}.json': pub({ userId: 'uuid' }),
  'PUT /setup/recover/abort/{userId}.json': pub({ userId: 'uuid' }),
  'GET /setup/user-key-policies/settings.json': pub(),
  'GET /user-key-policies/settings.json': signedIn(),
  'GET /export-policies/settings.json': signedIn(),
  // A transfer is the owner's (a new one for each call): others do not find it, and may not
  // move it on; the phone's route wants the transfer's own token, whoever holds a session.
  'POST /mobile/transfers.json': signedIn(),
  'GET /mobile/transfers/{id}.json': { expect: OWN, params: { id: 'transfer' } },
  'PUT /mobile/transfers/{id}.json': {
    expect: row({ user: 403, updater: 403, reader: 403, admin: 403 }, SIGNED_IN),
    params: { id: 'transfer' },
    body: TRANSFER_MOVE,
  },
  'POST /mobile/transfers/{id}.json': {
    expect: row({ user: 403, updater: 403, reader: 403, admin: 403 }, SIGNED_IN),
    params: { id: 'transfer' },
    body: TRANSFER_MOVE,
  },
  'PUT /mobile/transfers/{id}/{authenticationTokenId}.json': {
    expect: Object.fromEntries(RELATIONS.map((r) => [r, 401])) as Record<Relation, Expected>,
    params: { id: 'transfer', authenticationTokenId: 'uuid' },
    body: TRANSFER_MOVE,
  },
  'POST /mobile/transfers/{id}/{authenticationTokenId}.json': {
    expect: Object.fromEntries(RELATIONS.map((r) => [r, 401])) as Record<Relation, Expected>,
    params: { id: 'transfer', authenticationTokenId: 'uuid' },
    body: TRANSFER_MOVE,
  },
  'GET /account/settings.json': signedIn(),
  'GET /account/settings/themes.json': signedIn(),
  'POST /account/settings/themes.json': signedIn(),
  'GET /img/themes/{file}': pub({ file: { literal: 'midgar.svg' } }),
  'POST /locale/settings.json': admin(),
  'POST /account/settings/locales.json': signedIn(),
  'GET /password-policies/settings.json': signedIn(),
  'GET /password-generator/settings.json': signedIn(),
  'POST /password-policies/settings.json': admin(),
  'PUT /password-policies/settings.json': admin(),
  'GET /user-passphrase-policies/settings.json': signedIn(),
  'POST /user-passphrase-policies/settings.json': admin(),
  'PUT /user-passphrase-policies/settings.json': admin(),
  'GET /password-expiry/settings.json': signedIn(),
  'POST /password-expiry/settings.json': admin(),
  'PUT /password-expiry/settings.json': admin(),
  'DELETE /password-expiry/settings/{id}.json': {
    expect: row({ admin: 404 }, ADMIN_ONLY),
    params: { id: 'uuid' },
  },
  'GET /metadata/types/settings.json': signedIn(),
  'GET /metadata/keys/settings.json': signedIn(),
  'GET /metadata/setup/settings.json': signedIn(),
  'GET /metadata/settings/getting-started.json': signedIn(),
  'GET /metadata/keys.json': signedIn(),
  'PUT /metadata/types/settings.json': admin(),
  'POST /metadata/types/settings.json': admin(),
  'PUT /metadata/keys/settings.json': admin(),
  'POST /metadata/keys/settings.json': admin(),
  'POST /metadata/keys.json': admin(),
  'PUT /metadata/keys/{id}.json': {
    expect: row({ admin: 404 }, ADMIN_ONLY),
    params: { id: 'uuid' },
  },
  'POST /metadata/keys/{id}.json': {
    expect: row({ admin: 404 }, ADMIN_ONLY),
    params: { id: 'uuid' },
  },
  'DELETE /metadata/keys/{id}.json': {
    expect: row({ admin: 404 }, ADMIN_ONLY),
    params: { id: 'uuid' },
  },
  'POST /metadata/keys/{id}/private.json': admin({ id: 'uuid' }),
  'POST /metadata/keys/privates.json': admin(),
  'PUT /metadata/keys/private.json': admin(),
  'POST /metadata/keys/private.json': admin(),
  // A copy of a metadata private key is its recipient's: nobody else finds it, administrators
  // included.
  'PUT /metadata/keys/private/{id}.json': {
    expect: OWN,
    params: { id: 'ownerPrivateKey' },
    body: SEALED,
  },
  'POST /metadata/keys/private/{id}.json': {
    expect: OWN,
    params: { id: 'ownerPrivateKey' },
    body: SEALED,
  },
  'GET /metadata/session-keys.json': signedIn(),
  'POST /metadata/session-keys.json': signedIn(),
  'PUT /metadata/session-keys/{id}.json': {
    expect: OWN,
    params: { id: 'ownerSessionKey' },
    body: async () => ({ ...(await SEALED()), modified: '2020-01-01T00:00:00+00:00' }),
  },
  'POST /metadata/session-keys/{id}.json': {
    expect: OWN,
    params: { id: 'ownerSessionKey' },
    body: async () => ({ ...(await SEALED()), modified: '2020-01-01T00:00:00+00:00' }),
  },
  'DELETE /metadata/session-keys/{id}.json': { expect: OWN, params: { id: 'ownerSessionKey' } },
  'GET /metadata/upgrade/resources.json': admin(),
  'POST /metadata/upgrade/resources.json': admin(),
  'GET /metadata/rotate-key/resources.json': admin(),
  'POST /metadata/rotate-key/resources.json': admin(),
  'GET /metadata/upgrade/folders.json': admin(),
  'POST /metadata/upgrade/folders.json': admin(),
  'GET /metadata/rotate-key/folders.json': admin(),
  'POST /metadata/rotate-key/folders.json': admin(),
  'GET /settings/emails/notifications.json': admin(),
  'POST /settings/emails/notifications.json': admin(),
  'GET /smtp/settings.json': admin(),
  'POST /smtp/settings.json': admin(),
  'PUT /smtp/settings.json': admin(),
  'POST /smtp/email.json': admin(),
  'GET /self-registration/settings.json': admin(),
  'POST /self-registration/settings.json': admin(),
  'PUT /self-registration/settings.json': admin(),
  'DELETE /self-registration/settings/{id}.json': {
    expect: row({ admin: 404 }, ADMIN_ONLY),
    params: { id: 'uuid' },
  },
  'POST /self-registration/dry-run.json': pub(),
  'POST /users/register.json': pub(),
  // No report is offered: administrators get 400 naming it.
  'GET /reports/{reportSlug}.json': admin({ reportSlug: { literal: 'activity' } }),
  'GET /reports/{reportSlug}/{arg1}.json': admin({
    reportSlug: { literal: 'activity' },
    arg1: { literal: 'x' },
  }),
  'GET /css/shell.css': pub(),
  'GET /favicon.ico': pub(),
  'GET /js/app/{file}': pub({ file: { literal: 'api-app.js' } }),
  'GET /css/themes/{theme}/{file}': pub({
    theme: { literal: 'default' },
    file: { literal: 'api_main.min.css' },
  }),
  'GET /fonts/{file}': pub({ file: { literal: 'inconsolata-regular.ttf' } }),
  'GET /img/*path': pub({ path: { literal: 'logo/logo.svg' } }),
  'GET /locales/{locale}/{namespace}.json': pub({
    locale: { literal: 'en-UK' },
    namespace: { literal: 'common' },
  }),
  'GET /auth/login': pub(),
  'GET /users/recover': pub(),
  // As passbolt: a signed-in account does not register another (a stale session is a guest's).
  'GET /users/register': {
    expect: row({ user: 403, owner: 403, updater: 403, reader: 403, admin: 403 }, PUBLIC),
  },
  'GET /setup/install/{userId}/{tokenId}': pub(TOKEN),
  'GET /setup/start/{userId}/{tokenId}': pub(TOKEN),
  'GET /setup/recover/{userId}/{tokenId}': pub(TOKEN),
  'GET /setup/recover/start/{userId}/{tokenId}': pub(TOKEN),
  'GET /app/administration/*rest': pub({ rest: { literal: 'email-notification' } }),
  'GET /': pub(),
  'GET /app{/*rest}': pub({ rest: { literal: 'passwords' } }),
}

interface Fixture {
  resource: string
  folder: string
  comment: string
  tag: string
  favorite: string
  group: string
}

const setup = async (api: TestApi) => {
  const members = await team(
    api,
    ['owner', 'updater', 'reader', 'user', 'admin', 'disabled', 'deleted'],
    'admin',
  )
  const by = Object.fromEntries(members.map((m) => [m.username.split('@')[0], m])) as Record<
    string,
    Member
  >
  const groupOf = () =>
    makeGroup(api, `group-${crypto.randomUUID().slice(0, 8)}`, [by.owner, by.reader])
  const group = await groupOf()
  const fixture = async (ownGroup = group): Promise<Fixture> => {
    const { owner, updater, reader } = by
    const resource = (await createPassword(owner, `item-${crypto.randomUUID().slice(0, 8)}`))
      .id as string
    const permissions = [
      {
        aco: 'Resource',
        aro: 'User',
        aco_foreign_key: resource,
        aro_foreign_key: updater.id,
        type: 7,
      },
      {
        aco: 'Resource',
        aro: 'Group',
        aco_foreign_key: resource,
        aro_foreign_key: ownGroup,
        type: 1,
      },
    ]
    const secrets = await Promise.all(
      [updater, reader].map(async (m) => ({
        user_id: m.id,
        data: await encryptFor('{"password":"p"}', [m], owner),
      })),
    )
    const shared = await owner.client.json(`/share/resource/${resource}.json`, 'PUT', {
      permissions,
      secrets,
    })
    if (shared.status !== 200) throw new Error(`share: ${shared.text}`)
    const folder = (await owner.client.json('/folders.json', 'POST', { name: 'F' })).json.body
      .id as string
    const sharedFolder = await owner.client.json(`/share/folder/${folder}.json`, 'PUT', {
      permissions: permissions.map((p) => ({ ...p, aco: 'Folder', aco_foreign_key: folder })),
    })
    if (sharedFolder.status !== 200) throw new Error(`share folder: ${sharedFolder.text}`)
    const comment = (
      await owner.client.json(`/comments/resource/${resource}.json`, 'POST', { content: 'c' })
    ).json.body.id
    const tags = (
      await owner.client.json(`/tags/${resource}.json`, 'POST', {
        tags: [`mine-${resource.slice(0, 6)}`],
      })
    ).json.body
    const favorite = (await owner.client.json(`/favorites/resource/${resource}.json`, 'POST', {}))
      .json.body.id
    return { resource, folder, comment, tag: tags[0].id, favorite, group: ownGroup }
  }
  return { by, fixture, groupOf, group }
}

/** A mobile transfer the member starts (cancelling any they had going); its id. */
const startTransfer = async (member: Member) => {
  const started = await member.client.json('/mobile/transfers.json', 'POST', {
    total_pages: 3,
    hash: 'ab'.repeat(64),
  })
  if (started.status !== 200) throw new Error(`transfer: ${started.text}`)
  return started.json.body.id as string
}

/** A bundle of session keys the member caches; its id. */
const cacheSessionKey = async (member: Member) => {
  const cached = await member.client.json('/metadata/session-keys.json', 'POST', {
    data: await encryptFor('{}', [member]),
  })
  if (cached.status !== 200) throw new Error(`session keys: ${cached.text}`)
  return cached.json.body.id as string
}

/** A metadata key the administrator creates, with a copy for the member; the copy's id. */
const shareMetadataKey = async (api: TestApi, admin: Member, member: Member) => {
  const key = await generateMetadataKey()
  const keyId = await createMetadataKey(api, admin, key)
  const shared = await admin.client.json('/metadata/keys/privates.json', 'POST', [
    {
      metadata_key_id: keyId,
      user_id: member.id,
      data: await privateKeyCopy(key, [member], admin),
    },
  ])
  if (shared.status !== 200) throw new Error(`private key copy: ${shared.text}`)
  const [copy] = await sqlOf(api)(
    'select id from metadata_private_keys where metadata_key_id = $1 and user_id = $2',
    [keyId, member.id],
  )
  return copy.id as string
}

test('every route answers each caller as the table declares', async (t) => {
  t.timeout(600_000)
  const api = await startTestApi(t)
  const { by, fixture, groupOf } = await setup(api)
  const sql = sqlOf(api)
  const shared = await fixture()
  const routes = api.app.plugins
    .flatMap((plugin) => plugin.routes ?? [])
    .map((r) => `${r.method} ${r.path}`)
  t.deepEqual(
    routes.filter((name) => !(name in MATRIX)),
    [],
    'routes without a row in the matrix',
  )
  t.deepEqual(
    Object.keys(MATRIX).filter((name) => !routes.includes(name)),
    [],
    'rows of routes that are gone',
  )

  const [resourceType] = await sql('select id from resource_types order by slug limit 1')
  const [gpgkey] = await sql('select id from gpgkeys where user_id = $1', [by.owner.id])
  // The disabled and deleted callers hold a live session from before.
  await changeAndWait(api, () =>
    sql("update users set disabled = now() where username = 'disabled@keyward.test'"),
  )
  await changeAndWait(api, () =>
    sql("update users set deleted = true where username = 'deleted@keyward.test'"),
  )

  // A guest holds a CSRF cookie, as a browser on the sign-in page does: the role check is what
  // answers, not the CSRF one.
  const clientOf = async (relation: Relation): Promise<TestClient> => {
    if (relation !== 'guest') return by[relation].client
    const guest = new TestClient(api.url)
    await guest.fetch('/users/csrf-token.json')
    return guest
  }
  const throwaway = async () =>
    (
      await registerUser(api.app.orm.em.fork(), api.app, {
        username: `gone-${crypto.randomUUID().slice(0, 8)}@keyward.test`,
        firstName: 'T',
        lastName: 'U',
        role: 'user',
      })
    ).user.id

  let ownerPrivateKey: Promise<string> | undefined
  let cells = 0
  const mismatches: string[] = []
  for (const [name, spec] of Object.entries(MATRIX)) {
    if (!routes.includes(name)) continue
    const [method, template] = name.split(' ')
    for (const relation of RELATIONS) {
      const items = spec.fresh
        ? await fixture(name.startsWith('DELETE /groups/') ? await groupOf() : undefined)
        : shared
      const value = async (target: Target): Promise<string> => {
        if (typeof target === 'object') return target.literal
        if (target === 'ownerId') return by.owner.id
        if (target === 'throwawayUser') return throwaway()
        if (target === 'gpgkey') return gpgkey.id
        if (target === 'resourceType') return resourceType.id
        if (target === 'uuid') return crypto.randomUUID()
        if (target === 'transfer') return startTransfer(by.owner)
        if (target === 'ownerSessionKey') return cacheSessionKey(by.owner)
        if (target === 'ownerPrivateKey') {
          ownerPrivateKey ??= shareMetadataKey(api, by.admin, by.owner)
          return ownerPrivateKey
        }
        if (target === 'sharedTag') return items.tag
        return items[target]
      }
      let path = template.replace('{/*rest}', '/*rest')
      for (const [param, target] of Object.entries(spec.params ?? {}))
        path = path.replace(new RegExp(`\\{${param}\\}|\\*${param}`), await value(target))
      const client = await clientOf(relation)
      const answer =
        method === 'GET'
          ? await client.fetch(path)
          : await client.json(
              path,
              method,
              typeof spec.body === 'function' ? await spec.body(client) : (spec.body ?? {}),
            )
      cells++
      const expected = spec.expect[relation]
      const status = answer.status
      const passed =
        status < 500 &&
        (expected === 'ok' ? ![401, 403, 404].includes(status) : status === expected)
      if (
        spec.endsSession &&
        relation !== 'guest' &&
        relation !== 'disabled' &&
        relation !== 'deleted'
      ) {
        const again = new TestClient(api.url)
        await gpgAuthLogin(again, by[relation])
        await again.fetch('/users/csrf-token.json')
        by[relation] = { ...by[relation], client: again }
      }
      if (!passed)
        mismatches.push(
          `${name} as ${relation}: expected ${expected}, got ${status} ${answer.text.slice(0, 160)}`,
        )
    }
  }
  t.log(`${cells} cells checked over ${Object.keys(MATRIX).length} routes`)
  t.deepEqual(mismatches, [])
})
