// Resources over real HTTP, PostgreSQL and OpenPGP: create, list, view, update and delete as
// the official extension does them, every answer checked with the extension's own entities.
import test, { type ExecutionContext } from 'ava'
import { feedSettled, startTestApi } from '../helpers/api.ts'
import { clientValidation } from '../helpers/client-entities.ts'
import { countQueries } from '../helpers/queries.ts'
import {
  createPassword,
  decryptAs,
  encryptFor,
  makeGroup,
  PASSWORD_AND_DESCRIPTION,
  PASSWORD_STRING,
  secretInvariantViolations,
  sqlOf,
  team,
  V5_DEFAULT,
} from '../helpers/vault.ts'

const setup = async (t: ExecutionContext) => {
  const api = await startTestApi(t)
  const [ada, bob, eve] = await team(api, ['ada', 'bob', 'eve'])
  return { api, ada, bob, eve, sql: sqlOf(api) }
}

/** A permission written directly, with the grantees' trees updated as a share would. */
const grant = async (
  api: Awaited<ReturnType<typeof startTestApi>>,
  resourceId: string,
  aro: 'User' | 'Group',
  aroId: string,
  type: number,
) => {
  const sql = sqlOf(api)
  await sql(
    `insert into permissions (id, aco, aco_foreign_key, aro, aro_foreign_key, type)
     values (gen_random_uuid(), 'Resource', $1, $2, $3, $4)`,
    [resourceId, aro, aroId, type],
  )
  await sql(
    `insert into folders_relations (id, foreign_model, foreign_id, user_id)
     select gen_random_uuid(), 'Resource', $1, u.id from users u
     where u.id = $2 or u.id in (select user_id from groups_users where group_id = $2)
     on conflict do nothing`,
    [resourceId, aroId],
  )
}

test('creating a v4 password makes the caller its owner; the answer passes the extension’s ResourceEntity', async (t) => {
  const { api, ada } = await setup(t)
  const created = await createPassword(ada, 'github')
  t.like(created, {
    name: 'github',
    username: 'github@example.com',
    uri: 'https://github.example.com',
    resource_type_id: PASSWORD_AND_DESCRIPTION,
    created_by: ada.id,
    modified_by: ada.id,
    deleted: false,
    favorite: null,
    personal: true,
    folder_parent_id: null,
  })
  t.like(created.permission, { aro: 'User', aro_foreign_key: ada.id, type: 15, aco: 'Resource' })
  t.false('metadata' in created, 'a v4 resource has no metadata fields')
  t.deepEqual(await clientValidation('ResourceEntity', created), {})
  const secret = await ada.client.fetch(`/secrets/resource/${created.id}.json`)
  t.is(secret.status, 200)
  t.deepEqual(await clientValidation('SecretEntity', secret.json.body), {})
  t.is(JSON.parse(await decryptAs(secret.json.body.data, ada)).password, 'pw-github')
  t.deepEqual(await secretInvariantViolations(api), [])
  // The description of a password-and-description resource belongs in its secret: a clear one
  // is dropped, on creation and on update; a password-string resource keeps its own.
  const secrets = [{ data: await encryptFor('{"password":"p"}', [ada], ada) }]
  const withDescription = async (type: string) =>
    (
      await ada.client.json('/resources.json', 'POST', {
        name: 'n',
        description: 'clear notes',
        resource_type_id: type,
        secrets: [{ data: await encryptFor('p', [ada], ada) }],
      })
    ).json.body
  t.is((await withDescription(PASSWORD_AND_DESCRIPTION)).description, null)
  const plain = await withDescription(PASSWORD_STRING)
  t.is(plain.description, 'clear notes')
  const updated = await ada.client.json(`/resources/${plain.id}.json`, 'PUT', {
    name: 'n',
    description: 'still clear',
    resource_type_id: PASSWORD_AND_DESCRIPTION,
    secrets: secrets.map((secret) => ({ ...secret, user_id: ada.id })),
  })
  t.is(updated.status, 200, updated.text)
  t.is(updated.json.body.description, null)
})

test('a resource needs its name and exactly one secret, the owner’s, well formed and for them', async (t) => {
  const { ada, bob } = await setup(t)
  const post = (body: Record<string, unknown>) => ada.client.json('/resources.json', 'POST', body)
  const secret = await encryptFor('{"password":"x"}', [ada])
  const base = {
    name: 'n',
    resource_type_id: PASSWORD_AND_DESCRIPTION,
    secrets: [{ data: secret }],
  }
  const cases: [Record<string, unknown>, string, string][] = [
    [{ ...base, name: undefined }, 'name', '_required'],
    [{ ...base, name: '' }, 'name', '_empty'],
    [{ ...base, name: 'x'.repeat(256) }, 'name', 'maxLength'],
    [{ ...base, secrets: [] }, 'secrets', '_empty'],
    [{ ...base, secrets: undefined }, 'secrets', '_required'],
    [{ ...base, secrets: [{ data: secret }, { data: secret }] }, 'secrets', 'hasAtMost'],
    [{ ...base, resource_type_id: 'nope' }, 'resource_type_id', 'uuid'],
    [{ ...base, resource_type_id: V5_DEFAULT }, 'resource_type_id', 'isValidResourceType'],
    [{ ...base, uri: 'x'.repeat(1025) }, 'uri', 'maxLength'],
  ]
  for (const [body, field, rule] of cases) {
    const response = await post(body)
    t.is(response.status, 400, `${field}.${rule}`)
    t.truthy(
      response.json.body?.[field]?.[rule],
      `${field}.${rule}: ${JSON.stringify(response.json.body)}`,
    )
  }
  const clear = await post({ ...base, secrets: [{ data: 'not a message' }] })
  t.truthy(clear.json.body.secrets[0].data.isValidOpenPGPMessage)
  const forBob = await post({ ...base, secrets: [{ data: await encryptFor('x', [bob]) }] })
  t.truthy(forBob.json.body.secrets[0].data.isEncryptedForRecipient, 'encrypted for someone else')
  const nonAscii = await post({ ...base, secrets: [{ data: `${secret}é` }] })
  t.truthy(nonAscii.json.body.secrets[0].data.ascii)
  t.is((await ada.client.fetch('/resources.json')).json.body.length, 0, 'nothing was written')
})

test('the list holds what the caller can read, through groups too, each with the caller’s highest permission', async (t) => {
  const { api, ada, bob, eve } = await setup(t)
  const mine = await createPassword(ada, 'mine')
  const direct = await createPassword(ada, 'direct')
  const viaGroup = await createPassword(ada, 'via-group')
  await createPassword(eve, 'eves')
  const group = await makeGroup(api, 'Team', [ada, bob])
  await grant(api, direct.id, 'User', bob.id, 1)
  await grant(api, viaGroup.id, 'Group', group, 7)
  await grant(api, direct.id, 'Group', group, 7)
  const list = await bob.client.fetch('/resources.json?contain[permission]=1&contain[favorite]=1')
  t.is(list.status, 200)
  t.deepEqual(
    list.json.body.map((r: { name: string; permission: { type: number; aro: string } }) => [
      r.name,
      r.permission.type,
      r.permission.aro,
    ]),
    [
      ['direct', 7, 'Group'],
      ['via-group', 7, 'Group'],
    ],
  )
  t.deepEqual(list.json.header.pagination, { count: 2, page: 1, limit: null })
  for (const resource of list.json.body)
    t.deepEqual(await clientValidation('ResourceEntity', resource), {})
  t.is((await bob.client.fetch(`/resources/${mine.id}.json`)).status, 404)
  const view = await bob.client.fetch(
    `/resources/${direct.id}.json?contain[creator]=1&contain[modifier]=1`,
  )
  t.is(view.json.body.creator.username, 'ada@keyward.test')
  t.is(view.json.body.personal, false)
  t.deepEqual(await clientValidation('ResourceEntity', view.json.body), {})
})

test('filters: has-id, is-owned-by-me, is-shared-with-me, is-shared-with-group, is-favorite, metadata_key_type', async (t) => {
  const { api, ada, bob } = await setup(t)
  await createPassword(ada, 'a')
  const b = await createPassword(bob, 'b')
  const group = await makeGroup(api, 'Team', [bob, ada])
  await grant(api, b.id, 'Group', group, 1)
  const names = async (filter: string) =>
    (await ada.client.fetch(`/resources.json?${filter}`)).json.body.map(
      (r: { name: string }) => r.name,
    )
  t.deepEqual(await names(''), ['a', 'b'])
  t.deepEqual(await names(`filter[has-id][]=${b.id}`), ['b'])
  t.deepEqual(await names('filter[is-owned-by-me]=1'), ['a'])
  t.deepEqual(await names('filter[is-shared-with-me]=1'), ['b'])
  t.deepEqual(await names(`filter[is-shared-with-group]=${group}`), ['b'])
  t.is((await ada.client.fetch(`/favorites/resource/${b.id}.json`, { method: 'POST' })).status, 200)
  t.deepEqual(await names('filter[is-favorite]=1'), ['b'])
  t.deepEqual(await names('filter[is-favorite]=0'), ['a'])
  t.deepEqual(await names('filter[metadata_key_type]=shared_key'), [])
  const bad = await ada.client.fetch('/resources.json?filter[metadata_key_type]=foo')
  t.is(bad.status, 400)
  t.is(
    bad.json.header.message,
    'Invalid filter. "foo" is not a valid value for filter metadata_key_type.',
  )
  t.is((await ada.client.fetch('/resources.json?filter[has-id][]=nope')).status, 400)
  const sorted = await ada.client.fetch(
    '/resources.json?order[]=Resource.name%20DESC&limit=1&page=2',
  )
  t.deepEqual(
    sorted.json.body.map((r: { name: string }) => r.name),
    ['a'],
  )
  t.deepEqual(sorted.json.header.pagination, { count: 2, page: 2, limit: 1 })
})

test('contains: creator, modifier, favorite, secret, resource type, permissions with users and groups', async (t) => {
  const { api, ada, bob } = await setup(t)
  const shared = await createPassword(ada, 'shared')
  const group = await makeGroup(api, 'Team', [bob])
  await grant(api, shared.id, 'Group', group, 7)
  const all = [
    'creator',
    'modifier',
    'favorite',
    'secret',
    'resource-type',
    'permission',
    'permissions',
    'permissions.user.profile',
    'permissions.group',
  ]
  const response = await ada.client.fetch(
    `/resources.json?${all.map((c) => `contain[${c}]=1`).join('&')}`,
  )
  const [resource] = response.json.body
  t.is(resource.creator.id, ada.id)
  t.is(resource.modifier.id, ada.id)
  t.is(resource.favorite, null)
  t.is(resource.secrets.length, 1)
  t.is(resource.secrets[0].user_id, ada.id)
  t.is(resource.resource_type.slug, 'password-and-description')
  t.is(resource.permissions.length, 2)
  const user = resource.permissions.find((p: { aro: string }) => p.aro === 'User')
  const byGroup = resource.permissions.find((p: { aro: string }) => p.aro === 'Group')
  t.is(user.user.profile.first_name, 'Test')
  t.truthy(user.user.profile.avatar.url.medium)
  t.is(byGroup.group.name, 'Team')
  t.deepEqual(await clientValidation('ResourceEntity', resource), {})
})

test('a list costs the same statements for 10 resources and 200, whatever the contains', async (t) => {
  const { api, ada, bob } = await setup(t)
  const group = await makeGroup(api, 'Team', [ada, bob])
  const make = async (from: number, to: number) => {
    for (let i = from; i < to; i++) {
      const resource = await createPassword(ada, `r${String(i).padStart(3, '0')}`)
      await grant(api, resource.id, 'Group', group, 1)
      await grant(api, resource.id, 'User', bob.id, 7)
    }
  }
  const url =
    '/resources.json?contain[permission]=1&contain[favorite]=1&contain[permissions.user.profile]=1&contain[permissions.group]=1&contain[creator]=1&contain[secret]=1'
  // Settled, then warm: what the server keeps between requests is in place for both counts.
  const measure = async () => {
    await feedSettled(api)
    await bob.client.fetch(url)
    return countQueries(api, () => bob.client.fetch(url))
  }
  await make(0, 10)
  const small = await measure()
  t.is(small.result.json.body.length, 10)
  await make(10, 200)
  const large = await measure()
  t.is(large.result.json.body.length, 200)
  t.is(large.statements.length, small.statements.length)
  t.log(`${small.statements.length} statements`)
})

test('update: names and secrets by updaters; read-only callers get 403, others 404; the secrets must match the users with access', async (t) => {
  const { api, ada, bob, eve } = await setup(t)
  const resource = await createPassword(ada, 'old')
  await grant(api, resource.id, 'User', bob.id, 7)
  await grant(api, resource.id, 'User', eve.id, 1)
  const secretsFor = async (users: (typeof ada)[], text = '{"password":"new"}') =>
    Promise.all(
      users.map(async (user) => ({ user_id: user.id, data: await encryptFor(text, [user], bob) })),
    )
  const renamed = await bob.client.json(
    `/resources/${resource.id}.json?contain[permission]=1`,
    'PUT',
    {
      ...resource,
      name: 'new',
    },
  )
  t.is(renamed.status, 200, renamed.text)
  t.is(renamed.json.header.message, 'The resource has been updated successfully.')
  t.is(renamed.json.body.name, 'new')
  t.is(renamed.json.body.modified_by, bob.id)
  t.deepEqual(await clientValidation('ResourceEntity', renamed.json.body), {})
  const readOnly = await eve.client.json(`/resources/${resource.id}.json`, 'PUT', { name: 'x' })
  t.is(readOnly.status, 403)
  t.is(readOnly.json.header.message, 'You are not allowed to update this resource.')
  const [mallory] = await team(api, ['mallory'])
  t.is(
    (await mallory.client.json(`/resources/${resource.id}.json`, 'PUT', { name: 'x' })).status,
    404,
  )
  const partial = await bob.client.json(`/resources/${resource.id}.json`, 'PUT', {
    secrets: await secretsFor([ada, bob]),
  })
  t.is(partial.status, 400)
  t.truthy(partial.json.body.secrets.secrets_provided)
  const full = await bob.client.json(`/resources/${resource.id}.json`, 'PUT', {
    secrets: await secretsFor([ada, bob, eve]),
  })
  t.is(full.status, 200, full.text)
  const eveSecret = await eve.client.fetch(`/secrets/resource/${resource.id}.json`)
  t.is(JSON.parse(await decryptAs(eveSecret.json.body.data, eve)).password, 'new')
  t.deepEqual(await secretInvariantViolations(api), [])
  t.is((await bob.client.json(`/resources/${resource.id}.json`, 'PUT', {})).status, 400)
})

test('delete: updaters soft-delete; permissions, secrets and favorites go in the same transaction', async (t) => {
  const { api, ada, bob, eve, sql } = await setup(t)
  const resource = await createPassword(ada, 'gone')
  await grant(api, resource.id, 'User', bob.id, 7)
  await grant(api, resource.id, 'User', eve.id, 1)
  await eve.client.fetch(`/favorites/resource/${resource.id}.json`, { method: 'POST' })
  const refused = await eve.client.fetch(`/resources/${resource.id}.json`, { method: 'DELETE' })
  t.is(refused.status, 403)
  t.is(refused.json.header.message, 'You do not have the permission to delete this resource.')
  const deleted = await bob.client.fetch(`/resources/${resource.id}.json`, { method: 'DELETE' })
  t.is(deleted.status, 200)
  t.is(deleted.json.header.message, 'The resource has been deleted successfully.')
  t.deepEqual(
    await sql('select deleted, username, uri from resources where id = $1', [resource.id]),
    [{ deleted: true, username: null, uri: null }],
  )
  for (const table of [
    'permissions where aco_foreign_key',
    'secrets where resource_id',
    'favorites where foreign_key',
  ])
    t.deepEqual(await sql(`select 1 from ${table} = $1`, [resource.id]), [], table)
  t.is((await ada.client.fetch(`/resources/${resource.id}.json`)).status, 404)
  t.is((await ada.client.fetch(`/resources/${resource.id}.json`, { method: 'DELETE' })).status, 404)
  t.is((await ada.client.fetch('/resources/not-a-uuid.json', { method: 'DELETE' })).status, 400)
})

test('v5 resources: stored as given when the organisation allows them, encrypted to the caller’s key', async (t) => {
  const { api, ada, bob } = await setup(t)
  const sql = sqlOf(api)
  const metadata = await encryptFor(
    JSON.stringify({
      object_type: 'PASSBOLT_RESOURCE_METADATA',
      resource_type_id: V5_DEFAULT,
      name: 'v5',
    }),
    [ada],
    ada,
  )
  const body = {
    resource_type_id: V5_DEFAULT,
    folder_parent_id: null,
    personal: true,
    metadata_key_id: null,
    metadata_key_type: 'user_key',
    metadata,
    secrets: [
      {
        data: await encryptFor('{"object_type":"PASSBOLT_SECRET_DATA","password":"p"}', [ada], ada),
      },
    ],
  }
  const refused = await ada.client.json('/resources.json', 'POST', body)
  t.is(refused.status, 400)
  t.is(
    refused.json.header.message,
    'Resource creation/modification with encrypted metadata not allowed.',
  )
  await sql(
    `insert into organization_settings (id, property, property_id, value) values (gen_random_uuid(), 'metadataTypes', gen_random_uuid(), $1)`,
    [JSON.stringify({ allow_creation_of_v5_resources: true })],
  )
  // What the server enforces is what it tells the clients.
  t.like((await ada.client.fetch('/metadata/types/settings.json')).json.body, {
    allow_creation_of_v5_resources: true,
    allow_creation_of_v4_resources: true,
    default_resource_types: 'v4',
  })
  const created = await ada.client.json('/resources.json?contain[permission]=1', 'POST', body)
  t.is(created.status, 200, created.text)
  const [key] = await sql('select id from gpgkeys where user_id = $1', [ada.id])
  t.like(created.json.body, { metadata, metadata_key_type: 'user_key', metadata_key_id: key.id })
  t.false('name' in created.json.body)
  t.deepEqual(await clientValidation('ResourceEntity', created.json.body), {})
  // Metadata encrypted to a personal key is not shared, not even in a simulation.
  const permissions = [{ aro: 'User', aro_foreign_key: bob.id, type: 1 }]
  for (const [path, method] of [
    [`/share/simulate/resource/${created.json.body.id}.json`, 'POST'],
    [`/share/resource/${created.json.body.id}.json`, 'PUT'],
  ]) {
    const refusedShare = await ada.client.json(path, method, { permissions, secrets: [] })
    t.deepEqual(
      [refusedShare.status, refusedShare.json.header.message],
      [400, 'Resource metadata key type is invalid.'],
    )
  }
  const forBob = await ada.client.json('/resources.json', 'POST', {
    ...body,
    metadata: await encryptFor('{}', [bob]),
  })
  t.truthy(forBob.json.body.metadata.isValidEncryptedResourceMetadata)
  const mixed = await ada.client.json('/resources.json', 'POST', { ...body, name: 'clear' })
  t.is(mixed.json.header.message, 'V4 related fields are not supported for V5.')
  const v4Type = await ada.client.json('/resources.json', 'POST', {
    ...body,
    resource_type_id: PASSWORD_STRING,
  })
  t.truthy(v4Type.json.body.resource_type_id.isValidResourceType)
})
