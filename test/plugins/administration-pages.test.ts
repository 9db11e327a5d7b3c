// The administration pages passbolt's API app renders: served to signed-in users with the app's
// scripts and the user's theme, the extension's own pages left to the extension, and the app's
// static files with their types and cache lifetimes, nothing outside the package reachable.
import test from 'ava'
import { STYLEGUIDE_VERSION } from '../../plugins/pages/styleguide.ts'
import { startTestApi } from '../helpers/api.ts'
import { gpgAuthLogin, TestClient } from '../helpers/client.ts'
import { createActiveUser } from '../helpers/users.ts'

const API_PAGES = [
  'email-notification',
  'smtp-settings',
  'mfa',
  'self-registration',
  'internationalization',
  'healthcheck',
]

test('API app pages: guests go to sign in, signed-in users get the app in their theme', async (t) => {
  const api = await startTestApi(t, { env: { KEYWARD_APP_URL: 'https://vault.keyward.test/' } })
  const client = new TestClient(api.url)
  const guest = await client.fetch('/app/administration/smtp-settings')
  t.deepEqual(
    [guest.status, guest.headers.get('location')],
    [302, '/auth/login?redirect=%2Fapp%2Fadministration%2Fsmtp-settings'],
  )
  const admin = await createActiveUser(api, 'ada@keyward.test', { role: 'admin' })
  await gpgAuthLogin(client, admin)
  for (const name of API_PAGES) {
    const page = await client.fetch(`/app/administration/${name}`)
    t.is(page.status, 200, name)
    t.is(page.headers.get('content-type'), 'text/html; charset=utf-8')
    t.is(page.headers.get('cache-control'), 'no-store')
    t.regex(page.text, /^<!DOCTYPE html>\n<html class="passbolt /)
    t.true(page.text.endsWith('</html>'))
    t.true(page.text.includes('<base href="https://vault.keyward.test/">'), name)
    const scripts = [...page.text.matchAll(/<script src="([^"]+)"><\/script>/g)].map((m) => m[1])
    t.deepEqual(scripts, [
      `/js/app/api-vendors.js?v=${STYLEGUIDE_VERSION}`,
      `/js/app/api-app.js?v=${STYLEGUIDE_VERSION}`,
    ])
    t.false(/<script>|\son\w+="/.test(page.text), 'no inline script for the CSP to refuse')
    t.true(page.text.includes(`/css/themes/default/api_main.min.css?v=${STYLEGUIDE_VERSION}`))
    t.regex(page.headers.get('content-security-policy') ?? '', /script-src 'self';/)
  }
  // The page follows the user's theme.
  await client.json('/account/settings/themes.json', 'POST', { value: 'midgar' })
  const dark = await client.fetch('/app/administration/mfa/')
  t.true(dark.text.includes('/css/themes/midgar/api_main.min.css'))
})

test('the pages the extension renders itself keep the extension shell', async (t) => {
  const api = await startTestApi(t)
  const client = new TestClient(api.url)
  await gpgAuthLogin(client, await createActiveUser(api, 'ada@keyward.test', { role: 'admin' }))
  for (const path of [
    '/app/administration',
    '/app/administration/password-policies',
    '/app/administration/user-passphrase-policies/',
    '/app/administration/password-expiry',
    '/app/administration/content-types/metadata',
    '/app/settings/mfa',
    '/app/settings/mfa/totp',
  ]) {
    const page = await client.fetch(path)
    t.is(page.status, 200, path)
    t.true(page.text.includes('<html class="passbolt'), path)
    t.false(page.text.includes('<script'), path)
  }
})

test('static files of the API app: types, cache lifetimes, and nothing outside the package', async (t) => {
  const api = await startTestApi(t)
  const get = (path: string) => fetch(`${api.url}${path}`)
  const cases: [string, string, string][] = [
    [
      `/js/app/api-app.js?v=${STYLEGUIDE_VERSION}`,
      'text/javascript; charset=utf-8',
      'public, max-age=31536000, immutable',
    ],
    ['/js/app/api-vendors.js', 'text/javascript; charset=utf-8', 'public, max-age=86400'],
    [
      `/css/themes/solarized_dark/api_main.min.css?v=${STYLEGUIDE_VERSION}`,
      'text/css; charset=utf-8',
      'public, max-age=31536000, immutable',
    ],
    ['/fonts/opensans-variable-font.ttf', 'font/ttf', 'public, max-age=86400'],
    ['/fonts/passbolt-logo-Regular.otf', 'font/otf', 'public, max-age=86400'],
    ['/img/third_party/gmail.svg', 'image/svg+xml; charset=utf-8', 'public, max-age=86400'],
    ['/img/logo/logo.png', 'image/png', 'public, max-age=86400'],
    ['/locales/fr-FR/common.json', 'application/json; charset=utf-8', 'public, max-age=86400'],
  ]
  for (const [path, type, cache] of cases) {
    const response = await get(path)
    t.is(response.status, 200, path)
    t.is(response.headers.get('content-type'), type, path)
    t.is(response.headers.get('cache-control'), cache, path)
    t.is(response.headers.get('x-content-type-options'), 'nosniff', path)
    t.true((await response.arrayBuffer()).byteLength > 100, path)
  }
  const translations = await (await get('/locales/de-DE/common.json')).json()
  t.is(typeof translations, 'object')
  // A wrong version gets the short lifetime.
  t.is(
    (await get('/js/app/api-app.js?v=0.0.1')).headers.get('cache-control'),
    'public, max-age=86400',
  )
  for (const path of [
    '/js/app/webpack.config.js',
    '/js/app/api-app.js.LICENSE.txt',
    '/js/app/..%2Fpackage.json',
    '/css/themes/default/ext_app.min.css',
    '/css/themes/..%2F..%2F..%2Fpackage.json/api_main.min.css',
    '/fonts/..%2F..%2Fpackage.json',
    '/img/..%2F..%2Fpackage.json',
    '/img/%2e%2e/%2e%2e/package.json',
    '/img/logo/nope.svg',
    '/img/.hidden.svg',
    '/locales/en-UK/../../../package.json',
    '/locales/xx/common.json',
  ]) {
    const response = await get(path)
    t.is(response.status, 404, path)
    t.regex(response.headers.get('content-type') ?? '', /application\/json/, path)
  }
})
