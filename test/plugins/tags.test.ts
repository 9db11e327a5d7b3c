// Tags: personal tags per user, shared `#tags` changed only by owners, the caller's tags listed,
// renamed and deleted, resources' `contain[tag]` and `has-tag`, tags leaving with access, and
// every answer checked by the extension's own TagEntity / TagsCollection / ResourceEntity.
import test, { type ExecutionContext } from 'ava'
import { runInTransaction } from '../../api/db/transaction.ts'
import { type DeletionSubject, userDeletion } from '../../plugins/users/index.ts'
import { feedSettled, startTestApi, type TestApi } from '../helpers/api.ts'
import { clientValidation } from '../helpers/client-entities.ts'
import { countQueries } from '../helpers/queries.ts'
import {
  createPassword,
  encryptFor,
  type Member,
  makeGroup,
  sqlOf,
  team,
} from '../helpers/vault.ts'

const setup = async (t: ExecutionContext, names = ['ada', 'bob', 'eve']) => {
  const api = await startTestApi(t)
  const members = await team(api, names)
  return { api, members, sql: sqlOf(api) }
}

/** A permission written to the database, as a share would leave it. */
const grant = (api: TestApi, resourceId: string, aro: 'User' | 'Group', aroId: string, type = 1) =>
  sqlOf(api)(
    `insert into permissions (id, aco, aco_foreign_key, aro, aro_foreign_key, type)
     values (gen_random_uuid(), 'Resource', $1, $2, $3, $4)`,
    [resourceId, aro, aroId, type],
  )

const tagResource = (member: Member, resourceId: string, tags: unknown) =>
  member.client.json(`/tags/${resourceId}.json`, 'POST', { tags })

const slugs = (tags: { slug: string }[]) => tags.map((tag) => tag.slug)

/** The tags a member sees on a resource, through `contain[tag]`. */
const tagsSeen = async (member: Member, resourceId: string) =>
  slugs(
    (await member.client.fetch(`/resources/${resourceId}.json?contain[tag]=1`)).json.body.tags ??
      [],
  )

const tagCount = async (api: TestApi) =>
  (await sqlOf(api)('select count(*)::int as n from tags'))[0].n as number

test('an owner sets personal and shared tags; readers see the shared ones, and their own only', async (t) => {
  const { api, members } = await setup(t)
  const [ada, bob, eve] = members
  const resource = await createPassword(ada, 'mail')
  const set = await tagResource(ada, resource.id, ['work', '#team', 'work'])
  t.is(set.status, 200)
  t.is(set.json.header.message, 'The operation was successful.')
  t.deepEqual(slugs(set.json.body), ['#team', 'work'])
  t.like(set.json.body[0], { slug: '#team', is_shared: true })
  t.like(set.json.body[1], { slug: 'work', is_shared: false })
  t.deepEqual(Object.keys(set.json.body[0]).sort(), ['id', 'is_shared', 'slug'])
  t.deepEqual(await clientValidation('TagsCollection', set.json.body), {})

  await grant(api, resource.id, 'User', bob.id, 1)
  t.deepEqual(await tagsSeen(bob, resource.id), ['#team'], 'bob sees the shared tag only')
  const bobs = await tagResource(bob, resource.id, ['#team', 'work', 'later'])
  t.is(bobs.status, 200)
  t.deepEqual(slugs(bobs.json.body), ['#team', 'later', 'work'])
  const adaWork = set.json.body[1].id
  t.not(
    bobs.json.body.find((tag: { slug: string }) => tag.slug === 'work').id,
    adaWork,
    'personal tags of the same slug are each user’s own',
  )
  t.deepEqual(await tagsSeen(ada, resource.id), ['#team', 'work'], 'ada does not see bob’s tags')

  const listed = await bob.client.fetch('/tags.json')
  t.is(listed.status, 200)
  t.deepEqual(slugs(listed.json.body), ['#team', 'later', 'work'])
  t.deepEqual(await clientValidation('TagsCollection', listed.json.body), {})
  t.deepEqual(slugs((await ada.client.fetch('/tags.json')).json.body), ['#team', 'work'])
  t.deepEqual((await eve.client.fetch('/tags.json')).json.body, [], 'eve reads no tagged resource')

  const list = await bob.client.fetch(
    '/resources.json?contain[tag]=1&contain[permission]=1&contain[favorite]=1',
  )
  t.deepEqual(slugs(list.json.body[0].tags), ['#team', 'later', 'work'])
  t.deepEqual(await clientValidation('ResourcesCollection', list.json.body), {})
  t.false(
    'tags' in (await bob.client.fetch('/resources.json')).json.body[0],
    'tags only when asked for',
  )
})

test('only owners add or remove shared tags; a refused change writes nothing', async (t) => {
  const { api, members } = await setup(t)
  const [ada, bob] = members
  const resource = await createPassword(ada, 'vpn')
  await tagResource(ada, resource.id, ['#ops', 'mine'])
  await grant(api, resource.id, 'User', bob.id, 7)
  await tagResource(bob, resource.id, ['#ops', 'bobs'])
  const refused = [['bobs'], [], ['#ops', '#new', 'bobs']]
  for (const tags of refused) {
    const answer = await tagResource(bob, resource.id, tags)
    t.is(answer.status, 400, JSON.stringify(tags))
    t.is(
      answer.json.header.message,
      'You do not have the permission to edit shared tags on this resource.',
    )
    t.is(answer.json.body, '')
  }
  t.deepEqual(await tagsSeen(bob, resource.id), ['#ops', 'bobs'], 'nothing changed')
  const before = await tagCount(api)
  t.is((await tagResource(bob, resource.id, ['#ops', 'other'])).status, 200)
  t.is(await tagCount(api), before, 'bobs went unused and was removed; other was made')
  t.deepEqual(await tagsSeen(bob, resource.id), ['#ops', 'other'])

  const cleared = await tagResource(ada, resource.id, [])
  t.deepEqual(cleared.json.body, [], 'an owner removes the shared tag and their own')
  t.deepEqual(await tagsSeen(bob, resource.id), ['other'], 'bob keeps his personal tag')
  const added = await tagResource(ada, resource.id, ['#ops', '#sec'])
  t.deepEqual(slugs(added.json.body), ['#ops', '#sec'])
  t.deepEqual(await tagsSeen(bob, resource.id), ['#ops', '#sec', 'other'])
})

test('existing tags by id or slug are reused: one shared tag per slug, one personal tag per user and slug', async (t) => {
  const { members, sql } = await setup(t)
  const [ada, bob, eve] = members
  const first = await createPassword(ada, 'one')
  const second = await createPassword(ada, 'two')
  const onFirst = (await tagResource(ada, first.id, ['#shared', 'personal'])).json.body
  const [shared, personal] = onFirst
  const byId = await tagResource(ada, second.id, [{ id: shared.id }, { id: personal.id }])
  t.is(byId.status, 200)
  t.deepEqual(byId.json.body, onFirst, 'the same tags, by id')
  const bobs = await createPassword(bob, 'bobs')
  const bySlug = await tagResource(bob, bobs.id, ['#shared', { slug: 'personal' }])
  t.is(bySlug.json.body[0].id, shared.id, 'the shared tag of that slug')
  t.not(bySlug.json.body[1].id, personal.id, 'bob gets his own personal tag')
  t.deepEqual(await sql('select slug, count(*)::int as n from tags group by slug order by slug'), [
    { slug: '#shared', n: 1 },
    { slug: 'personal', n: 2 },
  ])
  const others = await tagResource(bob, bobs.id, [{ id: personal.id }])
  t.is(others.status, 400, 'someone else’s personal tag cannot be named by id')
  t.is(others.json.header.message, 'Could not validate request data.')
  t.deepEqual(others.json.body, {
    0: { id: { tagExists: 'The tag is missing or does not belong to current user.' } },
  })
  const shareById = await tagResource(bob, bobs.id, [{ id: shared.id }])
  t.deepEqual(slugs(shareById.json.body), ['#shared'], 'a shared tag the caller sees, by id')
  const eves = await createPassword(eve, 'eves')
  t.is(
    (await tagResource(eve, eves.id, [{ id: shared.id }])).status,
    400,
    'not a shared tag only on resources the caller cannot read',
  )
  t.deepEqual(
    slugs((await tagResource(eve, eves.id, ['#shared'])).json.body),
    ['#shared'],
    'by slug, the one shared tag of that slug',
  )
  t.is(
    (await tagResource(ada, first.id, [{ id: bySlug.json.body[1].id }])).status,
    400,
    'nor can ada name bob’s',
  )
})

test('bad input: each malformed list is a 400 in the envelope, never a partial write', async (t) => {
  const { api, members } = await setup(t, ['ada', 'eve'])
  const [ada, eve] = members
  const resource = await createPassword(ada, 'card')
  await tagResource(ada, resource.id, ['kept'])
  const cases: [unknown, number, string, unknown][] = [
    [
      { tags: 'kept' },
      400,
      'Could not validate request data.',
      { tags: { array: 'The tags should be a list.' } },
    ],
    [
      { tags: [1] },
      400,
      'Could not validate request data.',
      { 0: { type: 'The tags data should be a string or an array.' } },
    ],
    [
      { tags: ['ok', null] },
      400,
      'Could not validate request data.',
      { 1: { type: 'The tags data should be a string or an array.' } },
    ],
    [
      { tags: [{ id: 'nope' }] },
      400,
      'Could not validate request data.',
      { 0: { id: { uuid: 'The tag identifier should be a valid UUID.' } } },
    ],
    [
      { tags: ['new', ''] },
      400,
      'Could not validate tags data.',
      { 1: { slug: { _empty: 'The tag should not be empty.' } } },
    ],
    [
      { tags: ['x'.repeat(129)] },
      400,
      'Could not validate tags data.',
      { 0: { slug: { maxLength: 'The tag length should be maximum 128 characters.' } } },
    ],
    [
      { tags: ['nul\u0000'] },
      400,
      'Could not validate tags data.',
      { 0: { slug: { utf8Extended: 'The tag should be a valid BMP-UTF8 string.' } } },
    ],
    [
      { tags: ['\ud800'] },
      400,
      'Could not validate tags data.',
      { 0: { slug: { utf8Extended: 'The tag should be a valid BMP-UTF8 string.' } } },
    ],
    [
      { tags: [{}] },
      400,
      'Could not validate tags data.',
      { 0: { slug: { _required: 'A tag is required.' } } },
    ],
    [
      {
        tags: [
          {
            metadata: '-----BEGIN PGP MESSAGE-----',
            metadata_key_type: 'user_key',
            is_shared: false,
          },
        ],
      },
      400,
      'Tag creation/modification with encrypted metadata not allowed.',
      '',
    ],
    [
      { tags: Array.from({ length: 1001 }, (_, i) => `t${i}`) },
      400,
      'Could not validate request data.',
      { tags: { hasAtMost: 'A resource can hold at most 1000 tags.' } },
    ],
    [[1, 2], 400, 'Could not validate request data.', undefined],
  ]
  for (const [body, status, message, errors] of cases) {
    const answer = await ada.client.json(`/tags/${resource.id}.json`, 'POST', body)
    t.is(answer.status, status, JSON.stringify(body).slice(0, 80))
    t.is(answer.json.header.message, message)
    if (errors !== undefined) t.deepEqual(answer.json.body, errors)
  }
  const longest = '🏷'.repeat(128)
  t.deepEqual(slugs((await tagResource(ada, resource.id, [longest, 'kept'])).json.body), [
    'kept',
    longest,
  ])
  t.deepEqual(await tagsSeen(ada, resource.id), ['kept', longest])
  const badId = await ada.client.json('/tags/nope.json', 'POST', { tags: [] })
  t.is(badId.status, 400)
  t.deepEqual(badId.json.body, { id: { uuid: 'The resource identifier should be a valid UUID.' } })
  const hidden = await tagResource(eve, resource.id, ['mine'])
  t.is(hidden.status, 404)
  t.is(hidden.json.header.message, 'The resource does not exist.')
  const malformed = await ada.client.fetch(`/tags/${resource.id}.json`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: '{"tags": [',
  })
  t.is(malformed.status, 400)
  const empty = await ada.client.fetch(`/tags/${resource.id}.json`, { method: 'POST' })
  t.is(empty.status, 200, 'no body: no tags')
  t.deepEqual(empty.json.body, [])
  t.is((await api.request(`/tags/${resource.id}.json`, { method: 'POST' })).status, 401)
})

test('renaming a personal tag moves it on every resource of its user, merging with a tag of that slug', async (t) => {
  const { api, members } = await setup(t)
  const [ada, bob] = members
  const one = await createPassword(ada, 'one')
  const two = await createPassword(ada, 'two')
  const [work] = (await tagResource(ada, one.id, ['work'])).json.body
  await tagResource(ada, two.id, ['work', 'job'])
  await grant(api, one.id, 'User', bob.id)
  const [bobsWork] = (await tagResource(bob, one.id, ['work'])).json.body

  const renamed = await ada.client.json(`/tags/${work.id}.json`, 'PUT', { ...work, slug: 'office' })
  t.is(renamed.status, 200)
  t.is(renamed.json.header.message, 'The tag has been updated successfully.')
  t.like(renamed.json.body, { slug: 'office', is_shared: false })
  t.deepEqual(await clientValidation('TagEntity', renamed.json.body), {})
  t.deepEqual(await tagsSeen(ada, one.id), ['office'])
  t.deepEqual(await tagsSeen(ada, two.id), ['job', 'office'])
  t.deepEqual(await tagsSeen(bob, one.id), ['work'], 'bob’s tag of that slug is his own')
  const office = renamed.json.body
  const merged = await ada.client.json(`/tags/${office.id}.json`, 'PUT', { slug: 'job' })
  t.is(merged.status, 200)
  t.deepEqual(await tagsSeen(ada, one.id), ['job'])
  t.deepEqual(await tagsSeen(ada, two.id), ['job'], 'one link where both were')
  t.deepEqual(slugs((await ada.client.fetch('/tags.json')).json.body), ['job'])
  const same = await ada.client.json(`/tags/${merged.json.body.id}.json`, 'PUT', { slug: 'job' })
  t.deepEqual(same.json.body, merged.json.body, 'the same slug changes nothing')

  const put = (member: Member, id: string, body: unknown) =>
    member.client.json(`/tags/${id}.json`, 'PUT', body)
  const shared = (await tagResource(ada, one.id, ['job', '#all'])).json.body[0]
  const refusals: [Member, string, unknown, number, string, unknown?][] = [
    [ada, shared.id, { slug: 'x' }, 403, 'You do not have the permission to update shared tags.'],
    [bob, shared.id, { slug: 'x' }, 403, 'You do not have the permission to update shared tags.'],
    [ada, bobsWork.id, { slug: 'x' }, 404, 'The tag does not exist.'],
    [ada, '00000000-0000-4000-8000-000000000000', { slug: 'x' }, 404, 'The tag does not exist.'],
    [
      ada,
      'nope',
      { slug: 'x' },
      400,
      'Could not validate the request data.',
      { id: { uuid: 'The tag id is not valid.' } },
    ],
    [
      bob,
      bobsWork.id,
      { slug: '#work' },
      400,
      'You do not have the permission to change a personal tag into shared tag.',
    ],
    [
      bob,
      bobsWork.id,
      {},
      400,
      'Could not validate tag data.',
      { slug: { _required: 'A tag is required.' } },
    ],
    [
      bob,
      bobsWork.id,
      { slug: '' },
      400,
      'Could not validate tag data.',
      { slug: { _empty: 'The tag should not be empty.' } },
    ],
    [
      bob,
      bobsWork.id,
      { slug: 'y'.repeat(129) },
      400,
      'Could not validate tag data.',
      { slug: { maxLength: 'The tag length should be maximum 128 characters.' } },
    ],
    [bob, bobsWork.id, { slug: 7 }, 400, 'Could not validate tag data.'],
    [
      bob,
      bobsWork.id,
      { metadata: 'x', metadata_key_type: 'shared_key' },
      400,
      'Tag creation/modification with encrypted metadata not allowed.',
    ],
  ]
  for (const [member, id, body, status, message, errors] of refusals) {
    const answer = await put(member, id, body)
    t.is(answer.status, status, `${member.username} ${JSON.stringify(body)}`)
    t.is(answer.json.header.message, message)
    if (errors) t.deepEqual(answer.json.body, errors)
  }
  t.deepEqual(await tagsSeen(bob, one.id), ['#all', 'work'], 'nothing changed')
})

test('deleting a personal tag removes it from its user’s resources; shared tags cannot be deleted', async (t) => {
  const { api, members } = await setup(t)
  const [ada, bob] = members
  const one = await createPassword(ada, 'one')
  const two = await createPassword(ada, 'two')
  await tagResource(ada, one.id, ['gone', '#stays'])
  const [gone] = (await tagResource(ada, two.id, ['gone'])).json.body
  const shared = (await ada.client.fetch('/tags.json')).json.body[0]
  t.is(shared.slug, '#stays')
  await grant(api, one.id, 'User', bob.id)
  const forbidden = await ada.client.fetch(`/tags/${shared.id}.json`, { method: 'DELETE' })
  t.is(forbidden.status, 403)
  t.is(forbidden.json.header.message, 'You do not have the permission to delete shared tags.')
  const notBobs = await bob.client.fetch(`/tags/${gone.id}.json`, { method: 'DELETE' })
  t.is(notBobs.status, 404)
  t.is(notBobs.json.header.message, 'The tag does not exist.')
  t.deepEqual((await ada.client.fetch('/tags/nope.json', { method: 'DELETE' })).json.body, {
    id: { uuid: 'The tag id is not valid.' },
  })
  const deleted = await ada.client.fetch(`/tags/${gone.id}.json`, { method: 'DELETE' })
  t.is(deleted.status, 200)
  t.is(deleted.json.header.message, 'The tag has been deleted successfully.')
  t.is(deleted.json.body, null)
  t.deepEqual(await tagsSeen(ada, one.id), ['#stays'])
  t.deepEqual(await tagsSeen(ada, two.id), [])
  t.deepEqual(
    await sqlOf(api)('select slug from tags order by slug'),
    [{ slug: '#stays' }],
    'the unused tag row is gone',
  )
  t.is((await ada.client.fetch(`/tags/${gone.id}.json`, { method: 'DELETE' })).status, 404)
})

test('has-tag lists the resources with a shared tag, or with one of the caller’s own', async (t) => {
  const { api, members } = await setup(t, ['ada', 'bob'])
  const [ada, bob] = members
  const one = await createPassword(ada, 'one')
  const two = await createPassword(ada, 'two')
  const three = await createPassword(ada, 'three')
  for (const resource of [one, two, three]) await grant(api, resource.id, 'User', bob.id)
  await tagResource(ada, one.id, ['#team', 'mine'])
  await tagResource(ada, two.id, ['#team'])
  await tagResource(bob, three.id, ['mine'])
  const names = async (member: Member, slug: string) =>
    (
      await member.client.fetch(
        `/resources.json?filter[has-tag]=${encodeURIComponent(slug)}&contain[tag]=1`,
      )
    ).json.body
      .map((resource: { name: string }) => resource.name)
      .sort()
  t.deepEqual(await names(bob, '#team'), ['one', 'two'])
  t.deepEqual(await names(ada, 'mine'), ['one'])
  t.deepEqual(await names(bob, 'mine'), ['three'])
  t.deepEqual(await names(bob, 'none'), [])
  // No tag can hold U+0000, and no query may: PostgreSQL cannot store it.
  const nul = await bob.client.fetch(
    `/resources.json?filter[has-tag]=${encodeURIComponent('nul\u0000')}`,
  )
  t.is(nul.status, 400)
  const empty = await bob.client.fetch('/resources.json?filter[has-tag]=')
  t.is(empty.status, 400)
  t.is(empty.json.header.message, 'Invalid filter. "" is not a valid value for filter has-tag.')
})

test('tags go with access: a revoked share, a deleted resource, a deleted user or group', async (t) => {
  const { api, members, sql } = await setup(t, ['ada', 'bob', 'cat'])
  const [ada, bob, cat] = members
  const shared = await createPassword(ada, 'shared')
  const [bobPermission] = await sql(
    `insert into permissions (id, aco, aco_foreign_key, aro, aro_foreign_key, type)
     values (gen_random_uuid(), 'Resource', $1, 'User', $2, 1) returning id`,
    [shared.id, bob.id],
  )
  await sql(
    "insert into secrets (id, resource_id, user_id, data) values (gen_random_uuid(), $1, $2, 'x')",
    [shared.id, bob.id],
  )
  await tagResource(ada, shared.id, ['#team', 'ada'])
  await tagResource(bob, shared.id, ['#team', 'bob'])
  const revoked = await ada.client.json(`/share/resource/${shared.id}.json`, 'PUT', {
    permissions: [{ id: bobPermission.id, delete: true }],
    secrets: [],
  })
  t.is(revoked.status, 200, revoked.text)
  t.deepEqual(
    await sql(
      'select t.slug from resources_tags rt join tags t on t.id = rt.tag_id order by t.slug',
    ),
    [{ slug: '#team' }, { slug: 'ada' }],
    'bob’s personal tag went with his access; the shared one stays on the resource',
  )
  const grantAgain = await ada.client.json(`/share/resource/${shared.id}.json`, 'PUT', {
    permissions: [
      {
        aco: 'Resource',
        aro: 'User',
        aco_foreign_key: shared.id,
        aro_foreign_key: bob.id,
        type: 1,
      },
    ],
    secrets: [{ user_id: bob.id, data: await encryptFor('{"password":"x"}', [bob], ada) }],
  })
  t.is(grantAgain.status, 200, grantAgain.text)
  t.deepEqual(await tagsSeen(bob, shared.id), ['#team'], 'nothing of bob’s comes back')

  const deleted = await ada.client.fetch(`/resources/${shared.id}.json`, { method: 'DELETE' })
  t.is(deleted.status, 200)
  t.deepEqual(await sql('select * from resources_tags'), [])
  t.deepEqual(await sql('select * from tags'), [], 'unused tags are removed')

  // Deletion hooks, called as the deleting plugin calls them.
  const cleanup = (subject: DeletionSubject) =>
    runInTransaction(api.app.orm.em.fork(), async (em) => {
      for (const hooks of userDeletion.of(api.app.plugins).reverse())
        await hooks.cleanup?.(em, subject, api.app, ada.id)
    })
  const group = await makeGroup(api, 'Team', [bob, cat])
  const viaGroup = await createPassword(ada, 'via-group')
  const direct = await createPassword(ada, 'direct')
  await grant(api, viaGroup.id, 'Group', group, 1)
  await grant(api, direct.id, 'Group', group, 1)
  await grant(api, direct.id, 'User', cat.id, 1)
  await tagResource(cat, viaGroup.id, ['lost'])
  await tagResource(cat, direct.id, ['kept'])
  await tagResource(bob, viaGroup.id, ['bobs'])
  await sql('update groups set deleted = true where id = $1', [group])
  await cleanup({ kind: 'Group', id: group })
  t.deepEqual(
    await sql('select t.slug from resources_tags rt join tags t on t.id = rt.tag_id order by 1'),
    [{ slug: 'kept' }],
    'members keep their tags where they still read the resource',
  )
  await tagResource(ada, direct.id, ['#all', 'ada'])
  await cleanup({ kind: 'User', id: cat.id })
  t.deepEqual(
    await sql('select t.slug from resources_tags rt join tags t on t.id = rt.tag_id order by 1'),
    [{ slug: '#all' }, { slug: 'ada' }],
  )
  t.deepEqual(
    (await sql('select slug from tags order by 1')).map((row) => row.slug),
    ['#all', 'ada'],
  )
})

test('concurrent requests never make one tag twice', async (t) => {
  const { api, members, sql } = await setup(t, ['ada', 'bob'])
  const [ada, bob] = members
  const resources = await Promise.all(
    ['a', 'b', 'c', 'd', 'e', 'f'].map((name) => createPassword(ada, name)),
  )
  for (const resource of resources) await grant(api, resource.id, 'User', bob.id, 15)
  const answers = await Promise.all(
    resources.flatMap((resource) => [
      tagResource(ada, resource.id, ['#new', 'fresh']),
      tagResource(bob, resource.id, ['#new', 'fresh']),
    ]),
  )
  t.deepEqual(
    answers.map((answer) => answer.status),
    answers.map(() => 200),
  )
  t.deepEqual(await sql('select slug, count(*)::int as n from tags group by slug order by slug'), [
    { slug: '#new', n: 1 },
    { slug: 'fresh', n: 2 },
  ])
  // Renaming, untagging and deleting resources while others link the same tags.
  const fresh = (await ada.client.fetch('/tags.json')).json.body[1]
  const mixed = await Promise.all([
    ada.client.json(`/tags/${fresh.id}.json`, 'PUT', { slug: 'renamed' }),
    ...resources.map((resource) => tagResource(ada, resource.id, ['#new'])),
    ...resources.map((resource) => tagResource(bob, resource.id, ['#new', 'fresh', 'more'])),
    ...resources
      .slice(0, 2)
      .map((resource) => ada.client.fetch(`/resources/${resource.id}.json`, { method: 'DELETE' })),
  ])
  t.true(mixed.every((answer) => answer.status === 200 || answer.status === 404))
  t.deepEqual(
    await sql(
      'select t.id from tags t where not exists (select 1 from resources_tags rt where rt.tag_id = t.id)',
    ),
    [],
    'no tag is left unused',
  )
  t.deepEqual(
    await sql(
      'select rt.id from resources_tags rt join resources r on r.id = rt.resource_id where r.deleted',
    ),
    [],
    'no deleted resource keeps a tag',
  )
})

test('lists cost the same statements for 10 tagged resources and 100; a change the same for 1 tag and 30', async (t) => {
  const { api, members } = await setup(t, ['ada', 'bob'])
  const [ada, bob] = members
  const make = async (from: number, to: number) => {
    for (let i = from; i < to; i++) {
      const resource = await createPassword(ada, `r${String(i).padStart(3, '0')}`)
      await grant(api, resource.id, 'User', bob.id)
      await tagResource(ada, resource.id, ['#shared', `own${i}`])
      await tagResource(bob, resource.id, ['#shared', `bob${i % 7}`])
    }
  }
  const measure = async (url: string) => {
    await feedSettled(api)
    await bob.client.fetch(url)
    return countQueries(api, () => bob.client.fetch(url))
  }
  const urls = ['/tags.json', '/resources.json?contain[tag]=1&contain[permission]=1']
  await make(0, 10)
  const small = []
  for (const url of urls) small.push(await measure(url))
  await make(10, 100)
  const large = []
  for (const url of urls) large.push(await measure(url))
  t.is(large[0].result.json.body.length, 8)
  t.is(large[1].result.json.body.length, 100)
  for (const [index, url] of urls.entries()) {
    t.is(large[index].statements.length, small[index].statements.length, url)
    t.log(`${url}: ${small[index].statements.length} statements`)
  }
  const target = await createPassword(bob, 'target')
  const change = async (tags: string[]) => {
    await feedSettled(api)
    return countQueries(api, () => tagResource(bob, target.id, tags))
  }
  await change(['a'])
  const one = await change(['b'])
  const thirty = await change(Array.from({ length: 30 }, (_, i) => `tag${i}`))
  t.is(thirty.result.json.body.length, 30)
  t.is(thirty.statements.length, one.statements.length)
})

test('/settings.json advertises tags to signed-in users', async (t) => {
  const { api, members } = await setup(t, ['ada'])
  const [ada] = members
  const settings = await ada.client.fetch('/settings.json')
  t.deepEqual(settings.json.body.passbolt.plugins.tags, { enabled: true, version: '1.0.1' })
  t.is((await api.request('/settings.json')).json.body.passbolt.plugins.tags, undefined)
})
