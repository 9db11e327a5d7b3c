// The change feed and the caches built on it: a committed change to a user or an organisation
// setting reaches the server on its own, the cached account state then goes, and while the feed
// is down nothing is cached, so every request reads the database.
import test from 'ava'
import { CHANGE_FEED_APPLICATION } from '../../api/db/change-feed.ts'
import { changeAndWait, feedSettled, startTestApi } from '../helpers/api.ts'
import { TestClient } from '../helpers/client.ts'
import { query } from '../helpers/database.ts'
import { jwtLogin } from '../helpers/jwt.ts'
import { countQueries } from '../helpers/queries.ts'
import { createActiveUser } from '../helpers/users.ts'

const DOMAIN = 'https://vault.keyward.test'

const setup = async (t: import('ava').ExecutionContext) => {
  const api = await startTestApi(t, { env: { KEYWARD_APP_URL: `${DOMAIN}/` } })
  const user = await createActiveUser(api, 'ada@keyward.test')
  const client = new TestClient(api.url)
  const { answer } = await jwtLogin(client, user.id, user, DOMAIN)
  const me = () =>
    client.fetch('/users/me.json?contain[groups_users]=0', {
      headers: { authorization: `Bearer ${answer!.access_token}` },
    })
  const sql = (text: string, values: unknown[] = []) => query(api.app.database.url, text, values)
  await feedSettled(api)
  return { api, user, me, sql }
}

test('a bearer caller’s account is read once, then kept until its row changes', async (t) => {
  const { api, user, me, sql } = await setup(t)
  t.true(api.app.changes.live)
  await me()
  const warm = await countQueries(api, me)
  t.is(warm.statements.length, 0, 'the account state and the view are both kept')
  await changeAndWait(api, () =>
    sql("update users set username = 'ada.l@keyward.test' where id = $1", [user.id]),
  )
  const fresh = await countQueries(api, me)
  t.is(fresh.statements.length, 2, 'the account and the view are read again after its change')
  t.is(fresh.result.json.body.username, 'ada.l@keyward.test')
  await changeAndWait(api, () => sql('update users set deleted = true where id = $1', [user.id]))
  t.is((await me()).status, 401, 'a deleted account is refused at once')
})

test('while the feed is down nothing is kept: every request reads the account', async (t) => {
  const { api, me, sql } = await setup(t)
  await me()
  await sql(
    `select pg_terminate_backend(pid) from pg_stat_activity
     where datname = current_database() and application_name = '${CHANGE_FEED_APPLICATION}'`,
  )
  const deadline = Date.now() + 5_000
  while (api.app.changes.live && Date.now() < deadline)
    await new Promise((resolve) => setTimeout(resolve, 10))
  t.false(api.app.changes.live)
  const first = await countQueries(api, me)
  const second = await countQueries(api, me)
  t.is(first.statements.length, 3, 'the account, the organisation MFA settings and the view')
  t.is(second.statements.length, 3, 'still read, not kept')
  while (!api.app.changes.live && Date.now() < deadline + 5_000)
    await new Promise((resolve) => setTimeout(resolve, 50))
  t.true(api.app.changes.live, 'the feed comes back by itself')
  await me()
  t.is((await countQueries(api, me)).statements.length, 0)
})
