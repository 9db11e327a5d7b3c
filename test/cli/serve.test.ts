// The dev server and the preview server over real HTTP: URL normalisation, the 404 page,
// incremental rebuilds and live-reload events.
import { statSync } from 'node:fs'
import { join } from 'node:path'
import test from 'ava'
import { build } from '../../cli/build.ts'
import { type RunningServer, startServer } from '../../cli/serve/serve.ts'
import type { ReloadEvent } from '../../templates/client/dev-reload.ts'
import { ShardedIndex } from '../../templates/search/sharded.ts'
import { createSite, doc, type TestSite } from '../helpers/site.ts'

const docs = {
  'guide/index.md': doc({ title: 'Guide' }, 'Home of the guide.\n'),
  'guide/usage.md': doc({ title: 'Usage' }, 'Old usage text.\n'),
  'guide/other.md': doc({ title: 'Other' }, 'Other text.\n'),
}

const origin = (server: RunningServer) => new URL(server.url).origin

const get = (server: RunningServer, path: string, init?: RequestInit) =>
  fetch(`${origin(server)}${path}`, { redirect: 'manual', ...init })

/** Collects server-sent events of the dev server. */
const listen = async (server: RunningServer) => {
  const events: { event: string; data: unknown }[] = []
  const controller = new AbortController()
  const response = await fetch(`${origin(server)}/__docs/events`, { signal: controller.signal })
  const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader()
  let buffer = ''
  const waiters: (() => void)[] = []
  void (async () => {
    try {
      for (;;) {
        const { value, done } = await reader.read()
        if (done) return
        buffer += value
        let end = buffer.indexOf('\n\n')
        while (end !== -1) {
          const block = buffer.slice(0, end)
          buffer = buffer.slice(end + 2)
          const event = /^event: (.*)$/m.exec(block)?.[1]
          const data = /^data: (.*)$/m.exec(block)?.[1]
          if (event && data) events.push({ event, data: JSON.parse(data) })
          for (const wake of waiters.splice(0)) wake()
          end = buffer.indexOf('\n\n')
        }
      }
    } catch {
      // Aborted at the end of the test.
    }
  })()
  const next = async (event: string) => {
    const deadline = Date.now() + 20_000
    for (;;) {
      const index = events.findIndex((e) => e.event === event)
      if (index !== -1) return events.splice(index, 1)[0].data
      if (Date.now() > deadline) throw new Error(`no ${event} event`)
      await new Promise<void>((resolve) => {
        waiters.push(resolve)
        setTimeout(resolve, 200)
      })
    }
  }
  return { next, close: () => controller.abort() }
}

const startDev = async (t: import('ava').ExecutionContext, site: TestSite) => {
  const server = await startServer({ root: site.root, port: 0, host: '127.0.0.1' })
  t.teardown(() => server.close())
  return server
}

/** A dev server on the standard test site, with a live-reload listener. */
const startListening = async (t: import('ava').ExecutionContext) => {
  const site = createSite(t, docs)
  const server = await startDev(t, site)
  const events = await listen(server)
  t.teardown(events.close)
  return { site, server, events }
}

const checkNormalisation = async (
  t: import('ava').ExecutionContext,
  server: RunningServer,
  compressed: boolean,
) => {
  const expectRedirect = async (path: string, status: number, location: string) => {
    const response = await get(server, path)
    t.is(response.status, status, path)
    t.is(response.headers.get('location'), location, path)
  }
  await expectRedirect('/docs/guide', 301, '/docs/guide/')
  await expectRedirect('/docs/guide/usage?x=1', 301, '/docs/guide/usage/?x=1')
  await expectRedirect('/docs/guide/index.html', 301, '/docs/guide/')
  await expectRedirect('/docs/guide/usage.html', 301, '/docs/guide/usage/')
  await expectRedirect('/', 302, '/docs/')
  const page = await get(server, '/docs/guide/usage/')
  t.is(page.status, 200)
  t.is(page.headers.get('content-type'), 'text/html; charset=utf-8')
  t.true((await page.text()).includes('<h1>Usage</h1>'))
  for (const path of [
    '/docs/nope/',
    '/docs/guide/nope',
    '/elsewhere',
    '/docs/%2e%2e/%2e%2e/etc/passwd',
    '/docs/%E0%A4%A',
  ]) {
    const missing = await get(server, path)
    t.is(missing.status, 404, path)
    t.true((await missing.text()).includes('Page Not Found'), path)
  }
  t.is((await get(server, '/docs/guide/', { method: 'POST' })).status, 405)
  const css = (await (await get(server, '/docs/guide/')).text()).match(
    /\/docs\/assets\/css\/[^"]+/,
  )![0]
  const asset = await get(server, css)
  t.is(asset.headers.get('cache-control'), 'public, max-age=31536000, immutable')
  t.is(asset.headers.get('content-type'), 'text/css; charset=utf-8')
  // The preview gzips text for clients that accept it (fetch decompresses it again); the dev
  // server does not.
  t.is(asset.headers.get('content-encoding'), compressed ? 'gzip' : null)
  const text = await asset.text()
  t.true(text.includes('--navbar-height'))
  const plain = await get(server, css, { headers: { 'accept-encoding': 'identity' } })
  t.is(plain.headers.get('content-encoding'), null)
  t.is(await plain.text(), text)
}

test('dev server: .html, /index.html and missing slashes redirect; unmatched paths get the 404 page', async (t) => {
  const site = createSite(t, docs)
  await checkNormalisation(t, await startDev(t, site), false)
})

test('preview server (--dir) serves a built tree the same way, without live reload', async (t) => {
  const site = createSite(t, docs)
  await build({ root: site.root, outDir: site.out, workers: 1 })
  const server = await startServer({ root: site.root, port: 0, host: '127.0.0.1', dir: site.out })
  t.teardown(() => server.close())
  await checkNormalisation(t, server, true)
  t.is((await get(server, '/__docs/events')).status, 404)
  t.false((await (await get(server, '/docs/guide/')).text()).includes('dev-reload'))
})

test('editing a page body rebuilds only that page and tells open tabs to reload it', async (t) => {
  const { site, server, events } = await startListening(t)
  const page = await (await get(server, '/docs/guide/usage/')).text()
  t.true(page.includes('/docs/assets/js/dev-reload.'), 'the dev page loads the reload client')
  const otherPage = join(server.outDir, 'docs/guide/other/index.html')
  const otherWritten = statSync(otherPage).mtimeMs
  site.write('content/docs/guide/usage.md', doc({ title: 'Usage' }, 'New usage text.\n'))
  t.deepEqual(await events.next('reload'), {
    routes: ['/docs/guide/usage/'],
    full: false,
    layout: false,
  })
  t.true((await (await get(server, '/docs/guide/usage/')).text()).includes('New usage text.'))
  t.is(statSync(otherPage).mtimeMs, otherWritten, 'other pages are not rewritten')
})

test("after an edit the search index replaces that page's entries in the background", async (t) => {
  const site = createSite(t, docs)
  // A dev server started before leaves the build cache warm: the index must still be kept.
  await (await startDev(t, site)).close()
  const server = await startDev(t, site)
  const events = await listen(server)
  t.teardown(events.close)
  const searchFor = async (q: string) => {
    const manifest = await (await get(server, '/docs/search-manifest.json')).json()
    const rootUrl: string = manifest.versions.current
    const root = await (await get(server, rootUrl)).json()
    const base = rootUrl.slice(0, rootUrl.lastIndexOf('/') + 1)
    const index = new ShardedIndex(root, async (file) => (await get(server, base + file)).json())
    const hits = await index.search(q, 'all')
    const stored = await index.stored(hits.map((hit) => hit.id))
    return hits.map((hit) => stored.get(hit.id)!.u)
  }
  t.deepEqual(await searchFor('old'), ['/docs/guide/usage/'])
  site.write('content/docs/guide/usage.md', doc({ title: 'Usage' }, 'Zebracorn usage text.\n'))
  await events.next('reload')
  const deadline = Date.now() + 20_000
  while (!(await searchFor('zebracorn')).length && Date.now() < deadline)
    await new Promise((resolve) => setTimeout(resolve, 100))
  t.deepEqual(await searchFor('zebracorn'), ['/docs/guide/usage/'])
  t.deepEqual(await searchFor('old'), [], "the page's old entries are gone")
  t.deepEqual(await searchFor('other'), ['/docs/guide/other/'], 'other pages keep theirs')
})

test('changing a title rebuilds the pages whose sidebar shows it; adding a page rebuilds the site', async (t) => {
  const { site, server, events } = await startListening(t)
  site.write('content/docs/guide/usage.md', doc({ title: 'Using it' }, 'Old usage text.\n'))
  const retitled = (await events.next('reload')) as ReloadEvent
  t.true(retitled.layout, 'open pages reload: the sidebar changed')
  t.deepEqual([...retitled.routes].sort(), [
    '/docs/guide/',
    '/docs/guide/other/',
    '/docs/guide/usage/',
  ])
  t.true((await (await get(server, '/docs/guide/other/')).text()).includes('>Using it</a>'))

  site.write('content/docs/guide/new.md', doc({ title: 'New page' }))
  t.deepEqual(await events.next('reload'), {
    routes: [
      '/docs/guide/',
      '/docs/guide/new/',
      '/docs/guide/other/',
      '/docs/guide/usage/',
      '/docs/',
      '/docs/search/',
    ],
    full: true,
    layout: false,
  })
  t.is((await get(server, '/docs/guide/new/')).status, 200)
})

test('an edit that breaks a link is reported to open tabs and the last good pages stay served', async (t) => {
  const { site, server, events } = await startListening(t)
  site.write('content/docs/guide/other.md', doc({ title: 'Other' }, 'See [gone](./gone.md).\n'))
  t.is(await events.next('build-error'), '1 error(s), see the terminal')
  t.is((await get(server, '/docs/guide/usage/')).status, 200)
})

test('a static file edit is copied without a page rebuild', async (t) => {
  const { site, server, events } = await startListening(t)
  const page = join(server.outDir, 'docs/guide/usage/index.html')
  const pageWritten = statSync(page).mtimeMs
  site.write('content/static/img/extra.txt', 'hello')
  t.deepEqual(await events.next('reload'), { routes: [], full: true, layout: false })
  t.is(await (await get(server, '/docs/img/extra.txt')).text(), 'hello')
  t.is(statSync(page).mtimeMs, pageWritten)
})
