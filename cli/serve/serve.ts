// `docs serve`: the dev server (build to a temporary folder, watch, rebuild what changed,
// reload open tabs over server-sent events), or with `--dir` a preview of a built site.
import { spawn } from 'node:child_process'
import { cpSync, mkdtempSync, rmSync } from 'node:fs'
import { createServer, type Server, type ServerResponse } from 'node:http'
import { tmpdir } from 'node:os'
import { join, relative, sep } from 'node:path'
import type { ReloadEvent } from '../../templates/client/dev-reload.ts'
import { resolveConfig } from '../config/config.ts'
import { printDiagnostics } from '../log.ts'
import { TEMPLATES_DIR } from '../output/assets.ts'
import { DevBuilder, type DevResponse } from './dev-builder.ts'
import { createStaticHandler } from './static-server.ts'
import { watch } from './watch.ts'

export interface ServeOptions {
  root: string
  port: number
  host: string
  open?: boolean
  /** Serve this built folder instead of building. */
  dir?: string
}

export interface RunningServer {
  url: string
  /** The folder being served (a temporary build folder in dev mode). */
  outDir: string
  server: Server
  close(): Promise<void>
  /** Dev mode: resolves after the rebuild that the latest change started. */
  idle(): Promise<void>
}

const EVENTS_PATH = '/__docs/events'

const listen = (server: Server, port: number, host: string) =>
  new Promise<number>((resolve, reject) => {
    server.once('error', reject)
    server.listen(port, host, () => resolve((server.address() as { port: number }).port))
  })

const openBrowser = (url: string) => {
  const command =
    process.platform === 'darwin' ? 'open' : process.platform === 'win32' ? 'explorer' : 'xdg-open'
  spawn(command, [url], { stdio: 'ignore', detached: true })
    .on('error', () => console.error(`could not open a browser; visit ${url}`))
    .unref()
}

/** Starts the server; resolves once it listens (and, in dev mode, the first build is done). */
export const startServer = async (options: ServeOptions): Promise<RunningServer> => {
  const { site } = await resolveConfig({ root: options.root })
  const outDir = options.dir ?? mkdtempSync(join(tmpdir(), 'keyward-docs-'))
  const handleStatic = createStaticHandler({
    dir: outDir,
    baseUrl: site.baseUrl,
    compress: !!options.dir,
  })
  const clients = new Set<ServerResponse>()
  const broadcast = (event: string, data: unknown) => {
    for (const client of clients) client.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`)
  }

  const server = createServer((req, res) => {
    if (!options.dir && req.url === EVENTS_PATH) {
      res.writeHead(200, {
        'content-type': 'text/event-stream',
        'cache-control': 'no-cache',
        connection: 'keep-alive',
      })
      res.write(': connected\n\n')
      clients.add(res)
      req.on('close', () => clients.delete(res))
      return
    }
    handleStatic(req, res)
  })

  let builder: DevBuilder | undefined
  let pending: Promise<unknown> = Promise.resolve()
  let stopWatching: (() => Promise<void>) | undefined
  if (!options.dir) {
    builder = new DevBuilder({ root: options.root, outDir })
    let healthy = false
    const report = (response: DevResponse, started: number) => {
      if (!response.ok) {
        healthy = false
        console.error(response.message)
        broadcast('build-error', response.message)
        return
      }
      healthy = true
      const { result } = response
      printDiagnostics(result.errors, result.warnings)
      if (result.errors.length)
        broadcast('build-error', `${result.errors.length} error(s), see the terminal`)
      console.log(
        `rebuilt ${result.full ? 'site' : result.routes.join(', ')} in ${Math.round(performance.now() - started)} ms`,
      )
      broadcast('reload', {
        routes: result.routes,
        full: result.full,
        layout: !!result.layout,
      } satisfies ReloadEvent)
    }
    const first = await builder.run({ type: 'build' })
    if (!first.ok) throw new Error(first.message)
    healthy = true
    printDiagnostics(first.result.errors, first.result.warnings)

    const contentDir = join(options.root, 'content')
    const staticDir = join(contentDir, 'static')
    const docsDir = join(contentDir, 'docs')
    const i18nDir = join(contentDir, 'i18n')
    const versionsDir = join(contentDir, 'versions')
    // The API reference's sources (the server's routes): an edit there rebuilds the site.
    const referenceSources = (site.apiReference?.sources ?? []).map((path) =>
      join(options.root, path),
    )
    const watcher = watch({
      paths: [contentDir, TEMPLATES_DIR, ...referenceSources],
      onChange: (changes) => {
        const started = performance.now()
        const paths = changes.map((c) => c.path)
        const inTemplates = paths.some((p) => p.startsWith(TEMPLATES_DIR))
        const staticOnly = paths.every((p) => p.startsWith(staticDir + sep))
        // Translations and archived versions are docs too (their pages are rebuilt alone).
        const docEdits = changes.every(
          (c) =>
            c.event === 'change' &&
            c.path.endsWith('.md') &&
            [docsDir, i18nDir, versionsDir].some((dir) => c.path.startsWith(dir + sep)),
        )
        if (staticOnly) {
          // Static files are copied as they are; no page changes.
          for (const change of changes) {
            const target = join(
              outDir,
              ...site.baseUrl.split('/').filter(Boolean),
              relative(staticDir, change.path),
            )
            if (change.event === 'unlink') rmSync(target, { force: true })
            else if (change.event === 'add' || change.event === 'change')
              cpSync(change.path, target)
          }
          broadcast('reload', { routes: [], full: true, layout: false } satisfies ReloadEvent)
          return
        }
        const request =
          healthy && docEdits && !inTemplates
            ? { type: 'update' as const, files: paths }
            : { type: 'build' as const }
        pending = builder!.run(request, inTemplates).then((response) => report(response, started))
      },
    })
    await new Promise<void>((resolve) => watcher.once('ready', () => resolve()))
    stopWatching = () => watcher.close()
  }

  const port = await listen(server, options.port, options.host)
  const url = `http://${options.host.includes(':') ? `[${options.host}]` : options.host}:${port}${site.baseUrl}`
  return {
    url,
    outDir,
    server,
    idle: () => pending.then(() => undefined),
    close: async () => {
      await stopWatching?.()
      for (const client of clients) client.end()
      await new Promise((resolve) => server.close(resolve))
      await builder?.close()
      if (!options.dir) rmSync(outDir, { recursive: true, force: true })
    },
  }
}

export const serve = async (options: ServeOptions): Promise<void> => {
  const running = await startServer(options)
  console.log(`${options.dir ? 'Serving' : 'Dev server with live reload at'} ${running.url}`)
  if (options.open) openBrowser(running.url)
  const stop = async () => {
    await running.close()
    process.exit(0)
  }
  process.once('SIGINT', stop)
  process.once('SIGTERM', stop)
}
