// Comments: threads on a resource, written by whoever can read it, changed only by their
// authors, gone with the resource; every answer checked by the extension's CommentEntity and
// CommentsCollection.
import test, { type ExecutionContext } from 'ava'
import { feedSettled, startTestApi, type TestApi } from '../helpers/api.ts'
import { clientValidation } from '../helpers/client-entities.ts'
import { countQueries } from '../helpers/queries.ts'
import { createPassword, type Member, makeGroup, sqlOf, team } from '../helpers/vault.ts'

const setup = async (t: ExecutionContext, names = ['ada', 'bob', 'eve']) => {
  const api = await startTestApi(t)
  const members = await team(api, names)
  return { api, members, sql: sqlOf(api) }
}

const grant = (api: TestApi, resourceId: string, aro: 'User' | 'Group', aroId: string, type = 1) =>
  sqlOf(api)(
    `insert into permissions (id, aco, aco_foreign_key, aro, aro_foreign_key, type)
     values (gen_random_uuid(), 'Resource', $1, $2, $3, $4)`,
    [resourceId, aro, aroId, type],
  )

const comment = (member: Member, resourceId: string, body: unknown) =>
  member.client.json(`/comments/resource/${resourceId}.json`, 'POST', body)

const threads = (member: Member, resourceId: string, query = '') =>
  member.client.fetch(`/comments/resource/${resourceId}.json${query}`)

test('readers comment and reply; the threads come newest first with their authors', async (t) => {
  const { api, members, sql } = await setup(t)
  const [ada, bob] = members
  const resource = await createPassword(ada, 'server')
  const group = await makeGroup(api, 'Ops', [bob])
  await grant(api, resource.id, 'Group', group, 1)
  const first = await comment(ada, resource.id, { content: 'rotated on monday' })
  t.is(first.status, 200)
  t.is(first.json.header.message, 'The comment was successfully added.')
  t.like(first.json.body, {
    parent_id: null,
    foreign_key: resource.id,
    foreign_model: 'Resource',
    content: 'rotated on monday',
    user_id: ada.id,
    created_by: ada.id,
    modified_by: ada.id,
  })
  t.deepEqual(Object.keys(first.json.body).sort(), [
    'content',
    'created',
    'created_by',
    'foreign_key',
    'foreign_model',
    'id',
    'modified',
    'modified_by',
    'parent_id',
    'user_id',
  ])
  t.deepEqual(await clientValidation('CommentEntity', first.json.body), {})
  const reply = await comment(bob, resource.id, {
    content: 'thanks',
    parent_id: first.json.body.id,
  })
  t.is(reply.status, 200, 'a reader through a group replies')
  t.is(reply.json.body.parent_id, first.json.body.id)
  // A later thread: move the first one back in time so the order does not hang on one second.
  await sql(
    "update comments set created = created - interval '1 hour', modified = modified - interval '1 hour'",
  )
  const second = await comment(bob, resource.id, { content: 'still valid?' })

  const listed = await threads(bob, resource.id, '?contain[creator]=1&contain[modifier]=0')
  t.is(listed.status, 200)
  t.deepEqual(
    listed.json.body.map((c: { content: string }) => c.content),
    ['still valid?', 'rotated on monday'],
  )
  const [latest, earliest] = listed.json.body
  t.deepEqual(latest.children, [])
  t.is(earliest.children.length, 1)
  t.like(earliest.children[0], { content: 'thanks', parent_id: first.json.body.id, children: [] })
  t.is(earliest.creator.username, 'ada@keyward.test')
  t.truthy(earliest.creator.profile.avatar.url.medium)
  t.is(earliest.children[0].creator.id, bob.id, 'replies get their author too')
  t.false('modifier' in earliest)
  t.is(latest.id, second.json.body.id)
  t.deepEqual(await clientValidation('CommentsCollection', listed.json.body), {})
  const bare = await threads(ada, resource.id)
  t.false('creator' in bare.json.body[0])
  const both = await threads(ada, resource.id, '?contain[creator]=1&contain[modifier]=1')
  t.is(both.json.body[1].modifier.id, ada.id)
  t.deepEqual(await clientValidation('CommentsCollection', both.json.body), {})
  t.deepEqual((await threads(ada, (await createPassword(ada, 'quiet')).id)).json.body, [])
})

test('who may not read the resource neither reads nor writes its comments', async (t) => {
  const { members } = await setup(t)
  const [ada, , eve] = members
  const resource = await createPassword(ada, 'hidden')
  await comment(ada, resource.id, { content: 'secret plans' })
  const read = await threads(eve, resource.id)
  t.is(read.status, 404)
  t.is(read.json.header.message, 'Could not find comments for the requested model.')
  t.is(read.json.body, '')
  const write = await comment(eve, resource.id, { content: 'hi' })
  t.is(write.status, 404)
  t.is(write.json.header.message, 'The resource does not exist.')
  const unknown = '00000000-0000-4000-8000-000000000000'
  t.is((await threads(ada, unknown)).status, 404)
  t.is((await comment(ada, unknown, { content: 'hi' })).status, 404)
  const badList = await threads(ada, 'nope')
  t.is(badList.status, 400)
  t.deepEqual(badList.json.body, { resourceId: { uuid: 'Invalid id' } })
  const badAdd = await comment(ada, 'nope', { content: 'hi' })
  t.deepEqual(badAdd.json.body, {
    resourceId: { uuid: 'The resource identifier should be a valid UUID.' },
  })
  t.is((await ada.client.fetch(`/comments/folder/${resource.id}.json`)).status, 404)
})

test('content and parent are checked as passbolt checks them; nothing is written on a refusal', async (t) => {
  const { members, sql } = await setup(t, ['ada'])
  const [ada] = members
  const resource = await createPassword(ada, 'checked')
  const other = await createPassword(ada, 'other')
  const elsewhere = (await comment(ada, other.id, { content: 'on the other one' })).json.body
  const cases: [unknown, unknown][] = [
    [{}, { content: { _required: 'A content is required' } }],
    [{ content: '' }, { content: { _empty: 'The content should not be empty' } }],
    [{ content: null }, { content: { type: 'The content should not be empty' } }],
    [{ content: 42 }, { content: { type: 'The content should be a valid UTF8 string.' } }],
    [
      { content: 'x'.repeat(256) },
      { content: { lengthBetween: 'The content length should be between 1 and 255 characters.' } },
    ],
    [
      { content: 'a\u0000b' },
      { content: { utf8Extended: 'The content should be a valid UTF8 string.' } },
    ],
    [
      { content: 'half \ud83d' },
      { content: { utf8Extended: 'The content should be a valid UTF8 string.' } },
    ],
    [
      { content: 'hi', parent_id: 'nope' },
      { parent_id: { uuid: 'The parent comment identifier should be a valid UUID.' } },
    ],
    [
      { content: 'hi', parent_id: elsewhere.id },
      { parent_id: { has_valid_parent_id: 'The parent comment does not exist.' } },
    ],
    [
      { content: 'hi', parent_id: '00000000-0000-4000-8000-000000000000' },
      { parent_id: { has_valid_parent_id: 'The parent comment does not exist.' } },
    ],
    [['content'], undefined],
    ['content', undefined],
  ]
  for (const [body, errors] of cases) {
    const answer = await comment(ada, resource.id, body)
    t.is(answer.status, 400, JSON.stringify(body).slice(0, 60))
    t.is(answer.json.header.message, 'Could not validate comment data.')
    if (errors) t.deepEqual(answer.json.body, errors)
  }
  const malformed = await ada.client.fetch(`/comments/resource/${resource.id}.json`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: '{"content":',
  })
  t.is(malformed.status, 400)
  t.deepEqual(await sql('select 1 from comments where foreign_key = $1', [resource.id]), [])
  const longest = '🔑'.repeat(255)
  const accepted = await comment(ada, resource.id, { content: longest, parent_id: null })
  t.is(accepted.status, 200, '255 characters, whatever their UTF-16 length')
  t.is(accepted.json.body.content, longest)
  t.deepEqual(await clientValidation('CommentEntity', accepted.json.body), {})
})

test('only the author edits or deletes a comment, while they can read its resource', async (t) => {
  const { api, members, sql } = await setup(t)
  const [ada, bob, eve] = members
  const resource = await createPassword(ada, 'shared')
  await grant(api, resource.id, 'User', bob.id, 15)
  const adas = (await comment(ada, resource.id, { content: 'first' })).json.body
  const reply = (await comment(bob, resource.id, { content: 'reply', parent_id: adas.id })).json
    .body
  const put = (member: Member, id: string, body: unknown) =>
    member.client.json(`/comments/${id}.json`, 'PUT', body)
  const remove = (member: Member, id: string) =>
    member.client.fetch(`/comments/${id}.json`, { method: 'DELETE' })

  const edited = await put(ada, adas.id, { content: 'first, edited', user_id: bob.id })
  t.is(edited.status, 200)
  t.is(edited.json.header.message, 'The comment was successfully updated.')
  t.like(edited.json.body, { id: adas.id, content: 'first, edited', user_id: ada.id })
  t.deepEqual(await clientValidation('CommentEntity', edited.json.body), {})

  const refusals: [Member, string, unknown, number, string, unknown?][] = [
    [bob, adas.id, { content: 'mine now' }, 403, 'You are not allowed to edit this comment.'],
    [eve, adas.id, { content: 'hello' }, 404, 'The comment does not exist.'],
    [
      ada,
      '00000000-0000-4000-8000-000000000000',
      { content: 'x' },
      404,
      'The comment does not exist.',
    ],
    [
      ada,
      'nope',
      { content: 'x' },
      400,
      'Could not validate the request data.',
      { id: { uuid: 'The comment id is not valid.' } },
    ],
    [
      ada,
      adas.id,
      {},
      400,
      'Could not validate comment data.',
      { content: { _required: 'A content is required' } },
    ],
    [ada, adas.id, { content: 'x'.repeat(256) }, 400, 'Could not validate comment data.'],
  ]
  for (const [member, id, body, status, message, errors] of refusals) {
    const answer = await put(member, id, body)
    t.is(answer.status, status, `${member.username} ${JSON.stringify(body).slice(0, 40)}`)
    t.is(answer.json.header.message, message)
    if (errors) t.deepEqual(answer.json.body, errors)
  }
  const byBob = await remove(bob, adas.id)
  t.is(byBob.status, 404, 'someone else’s comment is not theirs to delete')
  t.is(byBob.json.header.message, 'The comment does not exist.')
  t.is((await remove(eve, reply.id)).status, 404)
  t.deepEqual((await remove(ada, 'nope')).json.body, {
    id: { uuid: 'The comment id is not valid.' },
  })

  // An author who lost access to the resource can no longer touch their comment.
  await sql('delete from permissions where aro_foreign_key = $1', [bob.id])
  t.is((await put(bob, reply.id, { content: 'late edit' })).status, 404)
  t.is((await remove(bob, reply.id)).status, 404)
  t.is((await threads(ada, resource.id)).json.body[0].children[0].content, 'reply')

  const deleted = await remove(ada, adas.id)
  t.is(deleted.status, 200)
  t.is(deleted.json.header.message, 'The comment was deleted.')
  t.is(deleted.json.body, null)
  t.deepEqual((await threads(ada, resource.id)).json.body, [], 'the reply went with it')
  t.is((await remove(ada, adas.id)).status, 404)
})

test('comments go with their resource', async (t) => {
  const { members, sql } = await setup(t, ['ada'])
  const [ada] = members
  const kept = await createPassword(ada, 'kept')
  const gone = await createPassword(ada, 'gone')
  await comment(ada, kept.id, { content: 'stays' })
  const root = (await comment(ada, gone.id, { content: 'goes' })).json.body
  await comment(ada, gone.id, { content: 'goes too', parent_id: root.id })
  t.is((await ada.client.fetch(`/resources/${gone.id}.json`, { method: 'DELETE' })).status, 200)
  t.deepEqual(
    (await sql('select content from comments order by content')).map((row) => row.content),
    ['stays'],
  )
  t.is((await threads(ada, gone.id)).status, 404)
})

test('the threads cost the same statements for 5 comments and 60, authors included', async (t) => {
  const { api, members } = await setup(t, ['ada', 'bob', 'eve'])
  const resource = await createPassword(members[0], 'busy')
  for (const member of members.slice(1)) await grant(api, resource.id, 'User', member.id)
  const add = async (count: number) => {
    for (let i = 0; i < count; i++) {
      const author = members[i % members.length]
      const parent = i % 3 === 2 ? (await threads(author, resource.id)).json.body[0].id : null
      await comment(author, resource.id, { content: `comment ${i}`, parent_id: parent })
    }
  }
  const url = `/comments/resource/${resource.id}.json?contain[creator]=1&contain[modifier]=1`
  const measure = async () => {
    await feedSettled(api)
    await members[1].client.fetch(url)
    return countQueries(api, () => members[1].client.fetch(url))
  }
  await add(5)
  const small = await measure()
  await add(55)
  const large = await measure()
  const count = (list: { children: unknown[] }[]): number =>
    list.reduce((total, c) => total + 1 + count(c.children as never), 0)
  t.is(count(large.result.json.body), 60)
  t.deepEqual(await clientValidation('CommentsCollection', large.result.json.body), {})
  t.is(large.statements.length, small.statements.length)
  t.log(`${small.statements.length} statements`)
})
