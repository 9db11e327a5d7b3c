// Writing features in a real browser: mermaid diagrams drawn as SVG in the colour mode (mermaid's
// code fetched only by pages with a diagram), click to zoom images, the copy button of a diff.
// The navbar's fit at every width is checked on the project's own site (project-site.test.ts).
import test from 'ava'
import sharp from 'sharp'
import { build } from '../../cli/build.ts'
import { type RunningServer, startServer } from '../../cli/serve/serve.ts'
import { seriousAxeFindings } from '../helpers/axe.ts'
import { closeBrowser, hydrated, newPage } from '../helpers/browser.ts'
import { baseConfig, Cleanups, createSite, doc } from '../helpers/site.ts'

const cleanups = new Cleanups()
let server: RunningServer
const url = (path: string) => new URL(path, server.url).href

test.before(async () => {
  const site = createSite(
    cleanups,
    {
      'guide/index.md': doc(
        { title: 'Guide' },
        '## Flow\n\n```mermaid\ngraph LR\n  Client --> Server\n```\n\n![A blue square](./square.png)\n\n```js\nconst a = 1 // [!code --]\nconst a = 2 // [!code ++]\nrun(a)\n```\n',
      ),
      'guide/plain.md': doc({ title: 'Plain' }, 'No diagram here.\n'),
    },
    {
      config: {
        ...baseConfig,
        // The project's own navbar: five guides and two outside links.
        navbar: {
          items: [
            { label: 'User guide', to: '/docs/guide/' },
            { label: 'Admin guide', to: '/docs/guide/' },
            { label: 'Hosting guide', to: '/docs/guide/' },
            { label: 'API guide', to: '/docs/guide/' },
            { label: 'Contribute guide', to: '/docs/guide/' },
            { label: 'Keyward', href: 'https://keyward.example/', position: 'right' },
            { label: 'Repository', href: 'https://git.example/keyward', position: 'right' },
          ],
        },
      },
    },
  )
  const png = await sharp({
    create: { width: 400, height: 300, channels: 3, background: '#2060d0' },
  })
    .png()
    .toBuffer()
  site.write('content/docs/guide/square.png', png as unknown as string)
  await build({ root: site.root, outDir: site.out, workers: 1, cacheDir: false })
  server = await startServer({ root: site.root, port: 0, host: '127.0.0.1', dir: site.out })
  cleanups.teardown(() => server.close())
})
test.after.always(async () => {
  await closeBrowser()
  await cleanups.run()
})

test('a mermaid fence is drawn as SVG, again when the colour mode changes; pages without one never fetch mermaid', async (t) => {
  const { page } = await newPage(t)
  const fetched: string[] = []
  page.on('request', (request) => fetched.push(request.url()))
  await page.goto(url('/docs/guide/plain/'))
  await hydrated(page)
  const before = fetched.length
  await page.goto(url('/docs/guide/'))
  await hydrated(page)
  await page.waitForSelector('.mermaid--drawn svg')
  t.true((await page.locator('.mermaid--drawn svg').textContent())?.includes('Server'))
  const mermaidChunks = fetched.slice(before).filter((u) => /\/assets\/js\//.test(u)).length
  t.true(mermaidChunks > 0)
  const fill = () =>
    page.evaluate(() => {
      const node = document.querySelector(
        '.mermaid--drawn svg .node rect, .mermaid--drawn svg .node polygon',
      )
      return node ? getComputedStyle(node).fill : ''
    })
  const dark = await fill()
  await page.evaluate(() => {
    document.documentElement.dataset.theme =
      document.documentElement.dataset.theme === 'dark' ? 'light' : 'dark'
  })
  await page.waitForFunction((old) => {
    const node = document.querySelector(
      '.mermaid--drawn svg .node rect, .mermaid--drawn svg .node polygon',
    )
    return node && getComputedStyle(node).fill !== old
  }, dark)
  t.not(await fill(), dark)
})

test('a page without a diagram loads no mermaid code', async (t) => {
  const { page } = await newPage(t)
  const scripts: string[] = []
  page.on('request', (request) => {
    if (request.resourceType() === 'script') scripts.push(request.url())
  })
  await page.goto(url('/docs/guide/plain/'))
  await hydrated(page)
  await page.waitForTimeout(500)
  const bytes = await page.evaluate(() =>
    performance
      .getEntriesByType('resource')
      .filter((e) => e.name.includes('/assets/js/'))
      .reduce((sum, e) => sum + (e as PerformanceResourceTiming).decodedBodySize, 0),
  )
  // React and the islands are about 250 KB decoded; mermaid alone is several megabytes.
  t.true(bytes < 600_000, `${bytes} bytes of scripts`)
})

test('an image opens full size in a dialog on click; Escape closes it and gives focus back', async (t) => {
  const { page } = await newPage(t)
  await page.goto(url('/docs/guide/'))
  // Once React has taken the page over, nothing it renders can drop the dialog.
  await hydrated(page)
  const image = page.getByRole('img', { name: 'A blue square' })
  t.is(await image.getAttribute('width'), '400')
  await image.click()
  const dialog = page.getByRole('dialog', { name: 'A blue square' })
  await dialog.waitFor({ timeout: 10_000 })
  await page.keyboard.press('Escape')
  await page.locator('dialog').waitFor({ state: 'detached', timeout: 10_000 })
  t.is(await page.locator('dialog').count(), 0)
})

test('the copy button leaves out the lines a diff removes', async (t) => {
  const { page, context } = await newPage(t)
  await context.grantPermissions(['clipboard-read', 'clipboard-write'])
  await page.goto(url('/docs/guide/'))
  await hydrated(page)
  await page.getByRole('button', { name: 'Copy code to clipboard' }).click()
  t.is(await page.evaluate(() => navigator.clipboard.readText()), 'const a = 2\nrun(a)')
})

for (const mode of ['light', 'dark'])
  test(`axe-core finds nothing serious on a doc page with a diagram, an image and a diff in ${mode} mode`, async (t) => {
    const { page } = await newPage(t)
    await page.addInitScript((choice) => localStorage.setItem('theme', choice), mode)
    await page.goto(url('/docs/guide/'))
    await hydrated(page)
    await page.waitForSelector('.mermaid--drawn svg')
    t.is(await page.evaluate(() => document.documentElement.dataset.theme), mode)
    t.deepEqual(await seriousAxeFindings(page), [])
  })
