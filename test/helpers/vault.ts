// A small team for resource and sharing tests: real users set up with real keys, each signed in
// with GPGAuth like the extension, secrets encrypted with openpgp.js as the clients do, groups
// written to the database, and the invariant every sharing test checks.

import type { ExecutionContext } from 'ava'
import * as openpgp from 'openpgp'
import { startTestApi, type TestApi } from './api.ts'
import { gpgAuthLogin, TestClient } from './client.ts'
import { query } from './database.ts'
import { createActiveUser, type TestUser } from './users.ts'

export const PASSWORD_AND_DESCRIPTION = 'a28a04cd-6f53-518a-967c-9963bf9cec51'
export const PASSWORD_STRING = '669f8c64-242a-59fb-92fc-81f660975fd3'
export const V5_DEFAULT = 'dd1f723d-0d1e-513f-8218-4055dc0530d0'

export interface Member extends TestUser {
  client: TestClient
}

/** Users set up through the real flow and signed in. */
export const team = async (api: TestApi, names: string[], admin?: string): Promise<Member[]> =>
  Promise.all(
    names.map(async (name) => {
      const user = await createActiveUser(api, `${name}@keyward.test`, {
        role: name === admin ? 'admin' : 'user',
      })
      const client = new TestClient(api.url)
      const { stage2 } = await gpgAuthLogin(client, user)
      if (stage2.status !== 200) throw new Error(`sign-in failed: ${stage2.text}`)
      return { ...user, client }
    }),
  )

/** An OpenPGP message of `text` for the given users, signed by `signer` as the clients sign. */
export const encryptFor = async (
  text: string,
  recipients: { publicKey: openpgp.Key }[],
  signer?: { privateKey: openpgp.PrivateKey },
) =>
  (await openpgp.encrypt({
    message: await openpgp.createMessage({ text }),
    encryptionKeys: recipients.map((recipient) => recipient.publicKey),
    ...(signer ? { signingKeys: signer.privateKey } : {}),
  })) as string

export const decryptAs = async (armored: string, member: { privateKey: openpgp.PrivateKey }) =>
  String(
    (
      await openpgp.decrypt({
        message: await openpgp.readMessage({ armoredMessage: armored }),
        decryptionKeys: member.privateKey,
      })
    ).data,
  )

const secretText = (password: string) => JSON.stringify({ password, description: 'notes' })

/** Creates a v4 password-and-description resource as `owner`; returns the answer's body. */
export const createPassword = async (
  owner: Member,
  name: string,
  password = `pw-${name}`,
  contain = '?contain[permission]=1&contain[favorite]=1',
) => {
  const response = await owner.client.json(`/resources.json${contain}`, 'POST', {
    name,
    username: `${name}@example.com`,
    uri: `https://${name}.example.com`,
    resource_type_id: PASSWORD_AND_DESCRIPTION,
    folder_parent_id: null,
    secrets: [{ data: await encryptFor(secretText(password), [owner], owner) }],
  })
  if (response.status !== 200) throw new Error(`create failed: ${response.text}`)
  return response.json.body
}

/** Ada and Bob, users, and Eve, an administrator, on a server of their own. */
export const adaBobAndEve = async (t: ExecutionContext) => {
  const api = await startTestApi(t)
  const [ada, bob, eve] = await team(api, ['ada', 'bob', 'eve'], 'eve')
  return { api, ada, bob, eve, sql: sqlOf(api) }
}

/** Sends `body` as JSON, or as it is when it is a string (for bodies that are not JSON). */
export const sendBody = (member: Member, method: string, path: string, body: unknown) =>
  member.client.fetch(path, {
    method,
    headers: { 'content-type': 'application/json' },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  })

export const sqlOf =
  (api: TestApi) =>
  async (text: string, values: unknown[] = []) => {
    const rows = await query(api.app.database.url, text, values)
    // The server keeps lists until it hears of a change; a test that changes rows and asks at
    // once must not race PostgreSQL's notification, as a client's change made through the
    // server does not (see `ChangeFeed.wroteHere`).
    api.app.changes.wroteHere()
    return rows
  }

/** A live group with these members (the first a manager), written to the database. */
export const makeGroup = async (api: TestApi, name: string, members: { id: string }[]) => {
  const sql = sqlOf(api)
  const [{ id }] = await sql(
    'insert into groups (id, name) values (gen_random_uuid(), $1) returning id',
    [name],
  )
  for (const [index, member] of members.entries())
    await sql(
      'insert into groups_users (id, group_id, user_id, is_admin) values (gen_random_uuid(), $1, $2, $3)',
      [id, member.id, index === 0],
    )
  return id as string
}

export { secretInvariantViolations } from './invariants.ts'
