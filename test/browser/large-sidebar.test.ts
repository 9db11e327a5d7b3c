// A guide whose sidebar is too large to repeat in every page: the page's HTML carries the part
// around it, the browser fills in the rest from the sidebar's JSON without a hydration error.
import test from 'ava'
import { build } from '../../cli/build.ts'
import { type RunningServer, startServer } from '../../cli/serve/serve.ts'
import { FULL_SIDEBAR_LIMIT } from '../../templates/Sidebar.tsx'
import { closeBrowser, hydrated, newPage } from '../helpers/browser.ts'
import { Cleanups, createSite, doc, type TestSite } from '../helpers/site.ts'

const cleanups = new Cleanups()
let site: TestSite
let server: RunningServer
const folders = 12
const perFolder = Math.ceil(FULL_SIDEBAR_LIMIT / folders) + 2

test.before(async () => {
  const docs: Record<string, string> = { 'guide/index.md': doc({ title: 'Guide' }) }
  for (let f = 0; f < folders; f++)
    for (let p = 0; p < perFolder; p++)
      docs[`guide/folder-${f}/page-${p}.md`] = doc({ title: `Folder ${f} page ${p}` })
  site = createSite(cleanups, docs)
  await build({ root: site.root, outDir: site.out, workers: 1 })
  server = await startServer({ root: site.root, port: 0, host: '127.0.0.1', dir: site.out })
})

test.after.always(async () => {
  await closeBrowser()
  await server?.close()
  await cleanups.run()
})

test('the page HTML holds the categories on its way, the others only by title', (t) => {
  const html = site.read('docs/guide/folder-3/page-1/index.html')
  const sidebar = html.slice(
    html.indexOf('<nav class="sidebar"'),
    html.indexOf('</nav>', html.indexOf('<nav class="sidebar"')),
  )
  t.true(sidebar.includes('href="/docs/guide/folder-3/page-2/"'), 'its own category')
  t.false(sidebar.includes('/docs/guide/folder-4/page-2/'), 'not the pages of other categories')
  t.true(sidebar.includes('>Folder 4</'), 'but their titles')
  t.true(html.length < 40 * 1024, `${html.length} bytes`)
})

test('hydrated, a large sidebar fills in the other categories from its JSON, without errors', async (t) => {
  const { page, errors, console } = await newPage(t)
  const missing: string[] = []
  page.on('response', (response) => {
    if (response.status() >= 400) missing.push(response.url())
  })
  await page.goto(new URL('guide/folder-3/page-1/', server.url).href)
  await hydrated(page)
  await page.locator('.doc-layout__sidebar summary', { hasText: 'Folder 4' }).click()
  const link = page.locator('.doc-layout__sidebar').getByRole('link', { name: 'Folder 4 page 2' })
  await link.waitFor()
  t.true(await link.isVisible())
  t.deepEqual(errors, [])
  t.deepEqual(missing, [])
  t.deepEqual(
    // The browser's own favicon request is no page resource (it is not in `missing`).
    console.filter((m) => m.type === 'error' && !m.text.startsWith('Failed to load resource')),
    [],
  )
})
