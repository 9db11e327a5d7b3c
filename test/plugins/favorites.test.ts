// Favorites: one per user and resource they can read, removed only by their owner.
import test from 'ava'
import { startTestApi } from '../helpers/api.ts'
import { clientValidation } from '../helpers/client-entities.ts'
import { createPassword, team } from '../helpers/vault.ts'

test('a user marks a resource they can read once, sees it in lists, and alone can unmark it', async (t) => {
  const api = await startTestApi(t)
  const [ada, bob] = await team(api, ['ada', 'bob'])
  const resource = await createPassword(ada, 'starred')
  const marked = await ada.client.fetch(`/favorites/resource/${resource.id}.json`, {
    method: 'POST',
  })
  t.is(marked.status, 200)
  t.is(marked.json.header.message, 'The resource was marked as favorite.')
  t.like(marked.json.body, { user_id: ada.id, foreign_key: resource.id, foreign_model: 'Resource' })
  t.deepEqual(await clientValidation('FavoriteEntity', marked.json.body), {})
  const twice = await ada.client.fetch(`/favorites/resource/${resource.id}.json`, {
    method: 'POST',
  })
  t.is(twice.status, 400)
  t.is(twice.json.header.message, 'This record is already marked as favorite.')
  const listed = await ada.client.fetch('/resources.json?contain[favorite]=1')
  t.is(listed.json.body[0].favorite.id, marked.json.body.id)
  t.is(
    (await bob.client.fetch(`/favorites/resource/${resource.id}.json`, { method: 'POST' })).status,
    404,
  )
  t.is(
    (await bob.client.fetch(`/favorites/${marked.json.body.id}.json`, { method: 'DELETE' })).status,
    404,
  )
  t.is((await ada.client.fetch('/favorites/nope.json', { method: 'DELETE' })).status, 400)
  const removed = await ada.client.fetch(`/favorites/${marked.json.body.id}.json`, {
    method: 'DELETE',
  })
  t.is(removed.json.header.message, 'The favorite was deleted.')
  t.is((await ada.client.fetch('/resources.json?contain[favorite]=1')).json.body[0].favorite, null)
})
