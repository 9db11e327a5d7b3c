// HTML pages for the extension: login, setup and recovery links, and the
// workspace at `/` and `/app/*`, which needs a signed-in session.
import { z } from 'zod'
import { defineRoute, Reply } from '../../api/plugin.ts'
import { ICON_SVG, SHELL_CSS } from './assets.ts'
import { shellPage } from './page.ts'

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
    handler: ({ user, request }) => {
      if (!user)
        return new Reply(null, {
          redirect: `/auth/login?redirect=${encodeURIComponent(request.path)}`,
        })
      return new Reply(shellPage('Workspace'), { html: true })
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

export const routes = [
  asset('/css/shell.css', 'Pages.stylesheet', 'text/css; charset=utf-8', SHELL_CSS),
  asset('/favicon.ico', 'Pages.icon', 'image/svg+xml', ICON_SVG),
  page('/auth/login', 'AuthLogin.loginGet', 'Sign in'),
  page('/setup/install/{userId}/{tokenId}', 'SetupStart.get', 'Account setup', link),
  page('/setup/start/{userId}/{tokenId}', 'SetupStart.getLegacy', 'Account setup', link),
  page('/setup/recover/{userId}/{tokenId}', 'RecoverStart.get', 'Account recovery', link),
  page(
    '/setup/recover/start/{userId}/{tokenId}',
    'RecoverStart.getLegacy',
    'Account recovery',
    link,
  ),
  workspace('/'),
  workspace('/app{/*rest}'),
]
