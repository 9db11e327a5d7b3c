// The HTML pages the browser extension attaches to: marked with class "passbolt", nothing after
// </html>, the API's security headers, and the workspace only for signed-in users.
import test from 'ava'
import { startTestApi } from '../helpers/api.ts'
import { gpgAuthLogin, TestClient } from '../helpers/client.ts'
import { createActiveUser } from '../helpers/users.ts'

const ID = '6b1c2d9a-1f7e-4c7a-9f0e-2b3c4d5e6f70'

test('login, setup and recovery pages are marked shells with the security headers', async (t) => {
  const api = await startTestApi(t)
  const client = new TestClient(api.url)
  for (const path of [
    '/auth/login',
    `/setup/install/${ID}/${ID}`,
    `/setup/start/${ID}/${ID}`,
    `/setup/recover/${ID}/${ID}`,
    `/setup/recover/start/${ID}/${ID}`,
  ]) {
    const page = await client.fetch(path)
    t.is(page.status, 200, path)
    t.is(page.headers.get('content-type'), 'text/html; charset=utf-8', path)
    t.regex(
      page.text,
      /^<!DOCTYPE html>\n<html class="passbolt no-js version launching no-passboltplugin" lang="en">/,
      path,
    )
    t.true(page.text.endsWith('</html>'), `${path}: nothing after </html>`)
    t.false(page.text.includes('<script'), path)
    t.is(page.headers.get('x-frame-options'), 'DENY', path)
  }
})

test('the workspace at / and /app/* redirects guests to the login page and serves signed-in users', async (t) => {
  const api = await startTestApi(t)
  const client = new TestClient(api.url)
  const home = await client.fetch('/')
  t.deepEqual([home.status, home.headers.get('location')], [302, '/auth/login?redirect=%2F'])
  const deep = await client.fetch('/app/passwords/view/123')
  t.deepEqual(
    [deep.status, deep.headers.get('location')],
    [302, '/auth/login?redirect=%2Fapp%2Fpasswords%2Fview%2F123'],
  )
  const user = await createActiveUser(api, 'ada@keyward.test')
  await gpgAuthLogin(client, user)
  for (const path of ['/', '/app', '/app/users', '/app/passwords/view/123']) {
    const page = await client.fetch(path)
    t.is(page.status, 200, path)
    t.true(page.text.includes('<html class="passbolt'), path)
  }
})
