// HTML pages for the extension: login, setup and recovery links, the workspace at `/` and
// `/app/*` (which needs a signed-in session), the administration pages passbolt's own API app
// renders, and the static files of those pages.
import { z } from 'zod'
import { HttpError, notFound } from '../../api/errors.ts'
import { defineRoute, Reply } from '../../api/plugin.ts'
import { readAccountSetting } from '../settings/index.ts'
import { apiAppPage } from './api-app-page.ts'
import { ICON_SVG, SHELL_CSS } from './assets.ts'
import { shellPage } from './page.ts'
import { type AssetKind, readAsset, STYLEGUIDE_VERSION, THEMES } from './styleguide.ts'

const link = z.object({ userId: z.uuid(), tokenId: z.uuid() })

const page = (path: string, action: string, title: string, params?: typeof link) =>
  defineRoute({
    method: 'GET',
    path,
    action,
    summary: `HTML page: ${title}`,
    auth: 'public',
    // HTML shells carry no data; the extension asks the API for it.
    permission: 'none',
    openapi: false,
    params,
    handler: () => new Reply(shellPage(title), { html: true }),
  })

const toSignIn = (path: string) =>
  new Reply(null, { redirect: `/auth/login?redirect=${encodeURIComponent(path)}` })

const workspace = (path: string) =>
  defineRoute({
    method: 'GET',
    path,
    action: 'Home.apiExtApp',
    summary: 'HTML page: the workspace, for signed-in users',
    auth: 'public',
    // HTML shells carry no data; the extension asks the API for it.
    permission: 'none',
    openapi: false,
    handler: ({ user, request }) =>
      user ? new Reply(shellPage('Workspace'), { html: true }) : toSignIn(request.path),
  })

/**
 * The administration pages the extension renders itself (its own list, 5.11): they get the
 * extension's shell. Every other page under /app/administration/ is the API app's.
 */
const EXTENSION_ADMINISTRATION = new Set(
  [
    'subscription',
    'account-recovery',
    'sso',
    'secret-history',
    'password-policies',
    'user-passphrase-policies',
    'password-expiry',
    'content-types/metadata',
    'content-types/metadata-key',
    'migrate-metadata',
    'allow-content-types',
    'content-types/metadata-getting-started',
    'subscription-teasing',
    'password-policies-teasing',
    'user-passphrase-policies-teasing',
    'account-recovery-teasing',
    'sso-teasing',
    'mfa-policy-teasing',
    'users-directory-teasing',
    'scim-teasing',
    'user-provisionning/scim',
  ].map((page) => `/app/administration/${page}`),
)

/** A page of passbolt's API app in the signed-in user's theme. */
const apiApp = async (
  {
    user,
    em,
    app,
  }: {
    user: { id: string }
    em: Parameters<typeof readAccountSetting>[0]
    app: { config: { appUrl: string } }
  },
  title: string,
) => {
  const chosen = await readAccountSetting<string>(em, user.id, 'theme')
  const theme = THEMES.find((name) => name === chosen) ?? 'default'
  return new Reply(apiAppPage({ appUrl: app.config.appUrl, theme, title }), {
    html: true,
  })
}

/** A page of passbolt's triage app, for people who are not signed in. */
const triage = (appUrl: string, title: string) =>
  new Reply(apiAppPage({ appUrl, theme: 'default', title, app: 'triage' }), { html: true })

/**
 * Recovery and self-registration from the web, for people whose extension is gone or not yet
 * installed: passbolt's triage app asks for the address and calls the API (`/users/recover.json`,
 * the self-registration dry run and `/users/register.json`, which apply the organisation's rules).
 */
const guestPages = [
  defineRoute({
    method: 'GET',
    path: '/users/recover',
    action: 'UsersRecover.recoverGet',
    summary: 'HTML page: ask for an account recovery link',
    auth: 'public',
    // HTML shells carry no data; the app asks the API, which applies the rules.
    permission: 'none',
    openapi: false,
    handler: ({ app }) => triage(app.config.appUrl, 'Account recovery'),
  }),
  defineRoute({
    method: 'GET',
    path: '/users/register',
    action: 'UsersRegister.registerGet',
    summary: 'HTML page: register (when the organisation allows it)',
    auth: 'public',
    // HTML shells carry no data; the app asks the API, which applies the rules.
    permission: 'none',
    openapi: false,
    handler: ({ app, user }) => {
      if (user) throw new HttpError(403, 'Only guests are allowed to register.')
      return triage(app.config.appUrl, 'Registration')
    },
  }),
]

const administration = defineRoute({
  method: 'GET',
  path: '/app/administration/*rest',
  action: 'Home.apiApp',
  summary: "HTML page: an administration page of passbolt's API app, for signed-in users",
  auth: 'public',
  // HTML shells carry no data; the app asks the API for it, which checks the caller's role.
  permission: 'none',
  openapi: false,
  handler: async ({ user, request, em, app }) => {
    if (!user) return toSignIn(request.path)
    const path = request.path.replace(/\/+$/, '')
    if (EXTENSION_ADMINISTRATION.has(path))
      return new Reply(shellPage('Administration'), { html: true })
    return apiApp({ user, em, app }, 'Administration')
  },
})

/** A static file the shells use, cacheable for a day. */
const asset = (path: string, action: string, type: string, content: string) =>
  defineRoute({
    method: 'GET',
    path,
    action,
    summary: `Static file: ${path}`,
    auth: 'public',
    // The same file for everyone.
    permission: 'none',
    openapi: false,
    handler: () =>
      new Reply(Buffer.from(content), {
        binary: type,
        headers: { 'Cache-Control': 'public, max-age=86400' },
      }),
  })

/**
 * Files of the API app. Scripts and stylesheets asked with the package version (`?v=`, as the
 * pages link them) never change under that URL and are kept a year; everything else a day.
 */
const styleguideFiles = (
  path: string,
  action: string,
  kind: AssetKind,
  file: (params: Record<string, string>) => string,
) =>
  defineRoute({
    method: 'GET',
    path,
    action,
    summary: `Static files of passbolt's API app: ${path}`,
    auth: 'public',
    // The same files for everyone.
    permission: 'none',
    openapi: false,
    handler: ({ params, request }) => {
      const found = readAsset(kind, file(params as Record<string, string>))
      if (!found) throw notFound()
      const versioned =
        (kind === 'js' || kind === 'css') &&
        new URL(request.url, 'http://keyward').searchParams.get('v') === STYLEGUIDE_VERSION
      return new Reply(found.body, {
        binary: found.type,
        headers: {
          'Cache-Control': versioned
            ? 'public, max-age=31536000, immutable'
            : 'public, max-age=86400',
        },
      })
    },
  })

export const routes = [
  asset('/css/shell.css', 'Pages.stylesheet', 'text/css; charset=utf-8', SHELL_CSS),
  asset('/favicon.ico', 'Pages.icon', 'image/svg+xml', ICON_SVG),
  styleguideFiles('/js/app/{file}', 'Pages.script', 'js', (p) => p.file),
  styleguideFiles(
    '/css/themes/{theme}/{file}',
    'Pages.themeStylesheet',
    'css',
    (p) => `${p.theme}/${p.file}`,
  ),
  styleguideFiles('/fonts/{file}', 'Pages.font', 'fonts', (p) => p.file),
  styleguideFiles('/img/*path', 'Pages.image', 'img', (p) => p.path),
  styleguideFiles(
    '/locales/{locale}/{namespace}.json',
    'Pages.translations',
    'locales',
    (p) => `${p.locale}/${p.namespace}.json`,
  ),
  defineRoute({
    method: 'GET',
    path: '/auth/login',
    action: 'AuthLogin.loginGet',
    summary: 'HTML page: Sign in',
    auth: 'public',
    // HTML shells carry no data; the extension asks the API for it.
    permission: 'none',
    openapi: false,
    handler: () =>
      new Reply(
        shellPage('Sign in', [
          {
            href: '/users/recover',
            text: 'Lost your browser extension or your key? Recover your account.',
          },
          { href: '/users/register', text: 'New here? Register, if your organisation allows it.' },
        ]),
        { html: true },
      ),
  }),
  ...guestPages,
  page('/setup/install/{userId}/{tokenId}', 'SetupStart.get', 'Account setup', link),
  page('/setup/start/{userId}/{tokenId}', 'SetupStart.getLegacy', 'Account setup', link),
  page('/setup/recover/{userId}/{tokenId}', 'RecoverStart.get', 'Account recovery', link),
  page(
    '/setup/recover/start/{userId}/{tokenId}',
    'RecoverStart.getLegacy',
    'Account recovery',
    link,
  ),
  administration,
  workspace('/'),
  workspace('/app{/*rest}'),
]
