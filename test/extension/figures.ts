// Issue 15's figures, from the end-to-end scenario's own timings: with 1,000 passwords in the
// workspace, the time from submitting the passphrase to the workspace listing them, and from
// saving a share to the other user seeing the shared password.
import { randomUUID } from 'node:crypto'
import type { ExecutionContext } from 'ava'
import * as openpgp from 'openpgp'
import type { TestApi } from '../helpers/api.ts'
import { query } from '../helpers/database.ts'
import type { ExtensionBrowser, Steps } from '../helpers/extension.ts'
import { PASSWORD_AND_DESCRIPTION, secretInvariantViolations } from '../helpers/vault.ts'
import { type Person, submitPassphrase, withPassphrase } from './accounts.ts'
import { pickAro } from './sharing.ts'
import { revealPassword, rowOf } from './workspace.ts'

export const SEEDED = 1000
const SEEDED_PREFIX = 'Seeded password'
const LATE_SHARE = { name: 'Quarterly report', secret: 'q3-Keyward-shared-late' }

export interface Figures {
  /** Milliseconds from submitting the passphrase to the grid listing the seeded passwords. */
  signIn: number
  /** From submitting the passphrase to the workspace's frame (its Create button), rows or not. */
  workspaceShown: number
  /** The requests the sign-in made until then, and the server's longest `GET /resources.json`. */
  signInRequests: number
  listServerMs: number
  /** From clicking Save in the share dialog to the sharer's confirmation. */
  shareSaved: number
  /** The server's time answering the share itself. */
  shareServerMs: number
  /** From clicking Save to the other user's grid showing the password (she searches for it). */
  shareSeen: number
}

interface Account {
  id: string
  key: openpgp.Key
}

const accountOf = async (api: TestApi, username: string): Promise<Account> => {
  const [row] = await query(
    api.app.database.url,
    `select u.id, g.armored_key from users u join gpgkeys g on g.user_id = u.id and not g.deleted
     where u.username = $1 and not u.deleted`,
    [username],
  )
  return { id: row.id, key: await openpgp.readKey({ armoredKey: row.armored_key }) }
}

const encrypt = async (password: string, key: openpgp.Key) =>
  (await openpgp.encrypt({
    message: await openpgp.createMessage({ text: JSON.stringify({ password, description: '' }) }),
    encryptionKeys: key,
  })) as string

/**
 * Writes `SEEDED` v4 passwords owned by `owner` and readable by `reader`, each with one real
 * OpenPGP secret per user encrypted to the key the server stored at their setup, plus one
 * password only `owner` has: what a workspace of 1,000 passwords holds, in one statement per
 * table (a few seconds, mostly encryption).
 */
export const seedPasswords = async (api: TestApi, owner: Person, reader: Person) => {
  const [owning, reading] = await Promise.all([
    accountOf(api, owner.username),
    accountOf(api, reader.username),
  ])
  const now = Date.now()
  const items = Array.from({ length: SEEDED }, (_, i) => ({
    id: randomUUID(),
    name: `${SEEDED_PREFIX} ${String(i).padStart(4, '0')}`,
    password: `seeded-${i}-${randomUUID().slice(0, 8)}`,
    readers: [owning, reading],
    // Spread over the last hour: the grid sorts on names or dates.
    modified: new Date(now - (i + 1) * 3_600),
  }))
  items.push({
    id: randomUUID(),
    ...LATE_SHARE,
    password: LATE_SHARE.secret,
    readers: [owning],
    modified: new Date(now),
  })
  const secrets = await Promise.all(
    items.flatMap((item) =>
      item.readers.map(async (account) => ({
        resource: item.id,
        user: account.id,
        data: await encrypt(item.password, account.key),
      })),
    ),
  )
  const permissions = items.flatMap((item) =>
    item.readers.map((account) => ({
      resource: item.id,
      user: account.id,
      type: account === owning ? 15 : 1,
    })),
  )
  const db = (text: string, values: unknown[]) => query(api.app.database.url, text, values)
  await db(
    `insert into resources (id, name, username, uri, resource_type_id, created, modified, created_by, modified_by)
     select r.id, r.name, 'ops', 'https://' || r.id || '.example.com', $4, r.modified, r.modified, $5, $5
     from unnest($1::uuid[], $2::text[], $3::timestamptz[]) as r(id, name, modified)`,
    [
      items.map((i) => i.id),
      items.map((i) => i.name),
      items.map((i) => i.modified),
      PASSWORD_AND_DESCRIPTION,
      owning.id,
    ],
  )
  await db(
    `insert into permissions (id, aco, aco_foreign_key, aro, aro_foreign_key, type, created_by, modified_by)
     select gen_random_uuid(), 'Resource', p.resource, 'User', p.user_id, p.type, $4, $4
     from unnest($1::uuid[], $2::uuid[], $3::smallint[]) as p(resource, user_id, type)`,
    [
      permissions.map((p) => p.resource),
      permissions.map((p) => p.user),
      permissions.map((p) => p.type),
      owning.id,
    ],
  )
  await db(
    `insert into secrets (id, resource_id, user_id, data, created_by, modified_by)
     select gen_random_uuid(), s.resource, s.user_id, s.data, $4, $4
     from unnest($1::uuid[], $2::uuid[], $3::text[]) as s(resource, user_id, data)`,
    [
      secrets.map((s) => s.resource),
      secrets.map((s) => s.user),
      secrets.map((s) => s.data),
      owning.id,
    ],
  )
  // Each reader has the password at the root of their folder tree.
  await db(
    `insert into folders_relations (id, foreign_model, foreign_id, user_id, folder_parent_id)
     select gen_random_uuid(), 'Resource', p.resource, p.user_id, null
     from unnest($1::uuid[], $2::uuid[]) as p(resource, user_id)`,
    [permissions.map((p) => p.resource), permissions.map((p) => p.user)],
  )
}

/** The slice of the extension's `chrome` API read here (it runs in the extension's worker). */
declare const chrome: {
  storage: { local: { get(key: string): Promise<Record<string, unknown[] | undefined>> } }
}

/** How many passwords the extension keeps for the signed-in user (what its grid lists). */
const listedCount = async (browser: ExtensionBrowser) =>
  (await browser.worker()).evaluate(
    async () => (await chrome.storage.local.get('resources')).resources?.length ?? 0,
  )

export interface FiguresContext {
  t: ExecutionContext
  steps: Steps
  admin: ExtensionBrowser
  /** The other user, signed in on her workspace. */
  reader: ExtensionBrowser
  readerPerson: Person
  readerPassphrase: string
  owner: Person
  api: TestApi
  domain: string
  passphrase: string
}

/** The administrator is signed out when this starts; the reader signed in. */
export const runFigureSteps = async (context: FiguresContext): Promise<Figures> => {
  const { t, steps, admin, reader, readerPerson, owner, api, domain, passphrase } = context
  const figures = {} as Figures
  const app = admin.iframe('app')
  let seedMs = 0
  await steps.run(`8a. with ${SEEDED.toLocaleString('en')} more passwords, the administrator signs in and sees them listed`, async () => {
    const seedStarted = Date.now()
    await seedPasswords(api, owner, readerPerson)
    seedMs = Date.now() - seedStarted
    const logsFrom = api.logs.length
    const submittedAt = await submitPassphrase(admin, domain, passphrase)
    await app.getByRole('button', { name: 'Create' }).waitFor({ timeout: 60_000 })
    figures.workspaceShown = Date.now() - submittedAt
    await rowOf(app, SEEDED_PREFIX).waitFor({ timeout: 60_000 })
    figures.signIn = Date.now() - submittedAt
    const requests = api.logs.slice(logsFrom).filter((line) => line.msg === 'request')
    figures.signInRequests = requests.length
    figures.listServerMs = Math.max(
      ...requests
        .filter((line) => line.method === 'GET' && line.path === '/resources.json')
        .map((line) => Number(line.ms)),
    )
    // Every one of them: the seeded ones, the one kept for the share, and step 2's password.
    t.is(await listedCount(admin), SEEDED + 2)
  }, ['GET /auth/is-authenticated.json 401'])
  await steps.run(
    '8b. the administrator shares one of them; the new user finds it and reads it',
    async () => {
      await app.getByPlaceholder('Search resource').fill(LATE_SHARE.name)
      await rowOf(app, LATE_SHARE.name).click({ button: 'right' })
      await app.locator('.contextual-menu button#share').click()
      await pickAro(
        app,
        '#share-name-input',
        readerPerson.firstName.toLowerCase(),
        readerPerson.firstName,
      )
      await app.getByText('Click save to apply your pending changes.').waitFor()
      const shareLogsFrom = api.logs.length
      const savedAt = Date.now()
      await app.locator('.share-form button[type="submit"]').click()
      await withPassphrase(
        app,
        app.getByText('The permissions have been changed successfully.'),
        passphrase,
      )
      figures.shareSaved = Date.now() - savedAt
      figures.shareServerMs = api.logs
        .slice(shareLogsFrom)
        .filter((line) => line.msg === 'request' && line.path === '/share/resource/{id}.json')
        .reduce((total, line) => total + Number(line.ms), 0)
      // She looks for it: a search reloads her passwords from the server.
      const theirs = reader.iframe('app')
      await theirs.getByPlaceholder('Search resource').fill(LATE_SHARE.name)
      await rowOf(theirs, LATE_SHARE.name).waitFor({ timeout: 60_000 })
      figures.shareSeen = Date.now() - savedAt
      t.is(await listedCount(reader), SEEDED + 2)
      t.is(
        await revealPassword(reader, LATE_SHARE.name, context.readerPassphrase),
        LATE_SHARE.secret,
      )
      // Whoever can read a password has exactly one secret of it, and nobody else has one.
      t.deepEqual(await secretInvariantViolations(api), [])
    },
  )
  t.log(
    `figures with ${SEEDED} passwords (seeding took ${seedMs} ms): passphrase submitted to the grid listing them ${figures.signIn} ms (workspace frame at ${figures.workspaceShown} ms; ${figures.signInRequests} requests; GET /resources.json ${figures.listServerMs} ms on the server); share Save to the sharer's confirmation ${figures.shareSaved} ms (the share request ${figures.shareServerMs} ms on the server); Save to the other user's grid showing it ${figures.shareSeen} ms`,
  )
  return figures
}
