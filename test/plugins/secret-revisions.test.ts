// Password history over real HTTP: the settings (administrators set how many secrets are kept),
// the revisions a user reads after updates, pruning, and what goes with access and resources.
import test from 'ava'
import { startTestApi } from '../helpers/api.ts'
import { clientValidation } from '../helpers/client-entities.ts'
import {
  createPassword,
  decryptAs,
  encryptFor,
  type Member,
  sqlOf,
  team,
} from '../helpers/vault.ts'

const setup = async (t: import('ava').ExecutionContext) => {
  const api = await startTestApi(t)
  const [admin, ada, bob, cat] = await team(api, ['admin', 'ada', 'bob', 'cat'], 'admin')
  return { api, admin, ada, bob, cat }
}

const secretText = (password: string) => JSON.stringify({ password, description: 'notes' })

/** Updates the secret for everyone who reads it, as the extension does. */
const updateSecret = async (
  by: Member,
  resourceId: string,
  readers: Member[],
  password: string,
) => {
  const answer = await by.client.json(`/resources/${resourceId}.json`, 'PUT', {
    secrets: await Promise.all(
      readers.map(async (reader) => ({
        user_id: reader.id,
        data: await encryptFor(secretText(password), [reader], by),
      })),
    ),
  })
  if (answer.status !== 200) throw new Error(answer.text)
}

const shareWith = async (owner: Member, resourceId: string, user: Member, type: number) => {
  const answer = await owner.client.json(`/share/resource/${resourceId}.json`, 'PUT', {
    permissions: [
      { aco: 'Resource', aro: 'User', aco_foreign_key: resourceId, aro_foreign_key: user.id, type },
    ],
    secrets: [{ user_id: user.id, data: await encryptFor(secretText('shared'), [user], owner) }],
  })
  if (answer.status !== 200) throw new Error(answer.text)
}

const history = async (member: Member, resourceId: string) => {
  const answer = await member.client.fetch(
    `/secret-revisions/resource/${resourceId}.json?contain[secret]=1&contain[creator.profile]=1`,
  )
  return answer
}

const passwords = async (member: Member, revisions: { secrets: { data: string }[] }[]) =>
  Promise.all(
    revisions.map(
      async (revision) => JSON.parse(await decryptAs(revision.secrets[0].data, member)).password,
    ),
  )

test('settings: defaults, administrators only, passbolt’s bounds', async (t) => {
  const { admin, ada } = await setup(t)
  const read = await ada.client.fetch('/secret-revisions/settings.json')
  t.deepEqual(read.json.body, { max_revisions: 1, allow_sharing_revisions: false })
  t.deepEqual(await clientValidation('SecretRevisionsSettingsEntity', read.json.body), {})
  for (const body of [
    {},
    { max_revisions: 0, allow_sharing_revisions: false },
    { max_revisions: 12, allow_sharing_revisions: false },
    { max_revisions: 2.5, allow_sharing_revisions: false },
    { max_revisions: '3', allow_sharing_revisions: false },
    { max_revisions: 3, allow_sharing_revisions: true },
    { max_revisions: 3 },
  ]) {
    const refused = await admin.client.json('/secret-revisions/settings.json', 'PUT', body)
    t.is(refused.status, 400, JSON.stringify(body))
  }
  t.is(
    (
      await ada.client.json('/secret-revisions/settings.json', 'PUT', {
        max_revisions: 3,
        allow_sharing_revisions: false,
      })
    ).status,
    403,
  )
  t.is(
    (await ada.client.fetch('/secret-revisions/settings.json', { method: 'DELETE' })).status,
    403,
  )
  const saved = await admin.client.json('/secret-revisions/settings.json', 'POST', {
    max_revisions: 11,
    allow_sharing_revisions: false,
  })
  t.is(saved.status, 200, saved.text)
  t.deepEqual(saved.json.body, { max_revisions: 11, allow_sharing_revisions: false })
  t.is((await ada.client.fetch('/secret-revisions/settings.json')).json.body.max_revisions, 11)
  t.is(
    (await admin.client.fetch('/secret-revisions/settings.json', { method: 'DELETE' })).status,
    200,
  )
  t.is((await ada.client.fetch('/secret-revisions/settings.json')).json.body.max_revisions, 1)
  t.is(
    (await admin.client.fetch('/secret-revisions/settings.json', { method: 'DELETE' })).status,
    200,
    'nothing to delete is fine',
  )
})

test('users read their own past secrets, pruned to the settings, gone with access and with the resource', async (t) => {
  const { api, admin, ada, bob, cat } = await setup(t)
  const sql = sqlOf(api)
  const resource = await createPassword(ada, 'vpn', 'first')
  await shareWith(ada, resource.id, bob, 7)

  // By default nothing is kept.
  await updateSecret(ada, resource.id, [ada, bob], 'second')
  let answer = await history(ada, resource.id)
  t.is(answer.status, 200, answer.text)
  t.is(answer.json.body.length, 1)
  t.deepEqual(await passwords(ada, answer.json.body), ['second'])
  t.is(answer.json.body[0].deleted, null)

  t.is(
    (
      await admin.client.json('/secret-revisions/settings.json', 'PUT', {
        max_revisions: 3,
        allow_sharing_revisions: false,
      })
    ).status,
    200,
  )
  await updateSecret(bob, resource.id, [ada, bob], 'third')
  await updateSecret(ada, resource.id, [ada, bob], 'fourth')
  await updateSecret(ada, resource.id, [ada, bob], 'fifth')
  // A rename leaves the secrets alone and adds no revision.
  t.is(
    (await ada.client.json(`/resources/${resource.id}.json`, 'PUT', { name: 'vpn 2' })).status,
    200,
  )

  answer = await history(ada, resource.id)
  t.deepEqual(
    await passwords(ada, answer.json.body),
    ['fifth', 'fourth', 'third'],
    'current, then the two newest past ones',
  )
  t.is(answer.json.body[2].created_by, bob.id, 'who wrote that secret')
  // The extension lists them sorted by `modified`, newest first: a revision's is when its secret
  // was written, not when it was replaced.
  const modified = answer.json.body.map((r: { modified: string }) => r.modified)
  t.deepEqual([...modified].sort().reverse(), modified)
  t.is(answer.json.body[2].modified_by, bob.id)
  t.is(answer.json.body[2].creator.username, bob.username)
  t.truthy(answer.json.body[1].deleted)
  for (const revision of answer.json.body)
    t.deepEqual(
      await clientValidation('SecretRevisionEntity', revision),
      {},
      JSON.stringify(revision),
    )
  const bobs = await history(bob, resource.id)
  t.deepEqual(
    await passwords(bob, bobs.json.body),
    ['fifth', 'fourth', 'third'],
    'bob reads his own copies',
  )
  const plain = await ada.client.fetch(`/secret-revisions/resource/${resource.id}.json`)
  t.is(plain.json.body[0].secrets, undefined, 'secrets only when asked')
  t.is(plain.headers.get('cache-control'), 'no-store')

  // Not readable by anyone without access; later readers see nothing of before.
  t.is((await history(cat, resource.id)).status, 404)
  t.is((await cat.client.fetch('/secret-revisions/resource/nope.json')).status, 400)
  await shareWith(ada, resource.id, cat, 1)
  t.deepEqual(await passwords(cat, (await history(cat, resource.id)).json.body), ['shared'])

  // Lowering the setting prunes what is kept.
  await admin.client.json('/secret-revisions/settings.json', 'PUT', {
    max_revisions: 2,
    allow_sharing_revisions: false,
  })
  t.is(
    (await sql('select count(*)::int as n from secret_revisions where user_id = $1', [ada.id]))[0]
      .n,
    1,
  )
  t.deepEqual(await passwords(ada, (await history(ada, resource.id)).json.body), [
    'fifth',
    'fourth',
  ])

  // Bob loses access: his history goes with his secret.
  const [bobPermission] = await sql(
    'select id from permissions where aro_foreign_key = $1 and aco_foreign_key = $2',
    [bob.id, resource.id],
  )
  t.is(
    (
      await ada.client.json(`/share/resource/${resource.id}.json`, 'PUT', {
        permissions: [{ id: bobPermission.id, delete: true }],
      })
    ).status,
    200,
  )
  t.is(
    (await sql('select count(*)::int as n from secret_revisions where user_id = $1', [bob.id]))[0]
      .n,
    0,
  )
  t.is((await history(bob, resource.id)).status, 404)

  // The resource goes: so does its history.
  t.is((await ada.client.fetch(`/resources/${resource.id}.json`, { method: 'DELETE' })).status, 200)
  t.is(
    (
      await sql('select count(*)::int as n from secret_revisions where resource_id = $1', [
        resource.id,
      ])
    )[0].n,
    0,
  )
  t.is((await history(ada, resource.id)).status, 404)
})
