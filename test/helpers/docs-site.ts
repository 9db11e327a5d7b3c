// A small docs site built and served for browser tests: a long page with many headings (scroll,
// table of contents, navbar hiding), categories of different heights (collapse animation) and
// pages linking to each other (client navigation).
import { build } from '../../cli/build.ts'
import { type RunningServer, startServer } from '../../cli/serve/serve.ts'
import { baseConfig, Cleanups, createSite, doc, type Teardown } from './site.ts'

const paragraph =
  'Keyward keeps every secret encrypted on the clients. The server stores PGP messages, checks ' +
  'permissions and sends emails; it never sees a password in clear text. '

const longBody = Array.from(
  { length: 10 },
  (_, i) =>
    `## Section ${i + 1}\n\n${paragraph.repeat(12)}\n\n### Detail ${i + 1}\n\n${paragraph.repeat(4)}\n`,
).join('\n')

export const siteDocs: Record<string, string> = {
  'guide/index.md': doc(
    { title: 'Guide', sidebar_position: 1 },
    `Read [the second page](./second.md) or jump to [section 3](#section-3).\n\n${longBody}`,
  ),
  'guide/second.md': doc(
    { title: 'Second page', sidebar_position: 2, description: 'The second page.' },
    `Back to [the guide](./index.md), on to [the third page](./third.md#part-two).\n\n## Part one\n\n${paragraph.repeat(20)}\n\n## Part two\n\n${paragraph.repeat(20)}\n`,
  ),
  'guide/third.md': doc(
    { title: 'Third page', sidebar_position: 3 },
    `## Part one\n\n${paragraph.repeat(30)}\n\n## Part two\n\n${paragraph.repeat(30)}\n`,
  ),
  ...Object.fromEntries(
    Array.from({ length: 20 }, (_, i) => [
      `guide/big/page-${String(i + 1).padStart(2, '0')}.md`,
      doc({ title: `Big page ${i + 1}` }),
    ]),
  ),
  'guide/small/only.md': doc({ title: 'Only small page' }),
  'guide/tabs.md': doc(
    { title: 'Tabs page', sidebar_position: 4 },
    [
      '::::tabs{groupId="os"}',
      ':::tab[Debian]',
      'Run `apt install keyward`.',
      ':::',
      ':::tab[Red Hat]{value="rhel"}',
      'Run `dnf install keyward`.',
      ':::',
      '::::',
      '',
      '```bash title="Start"',
      'keyward start --port 8080',
      '```',
      '',
      '::::tabs{groupId="os"}',
      ':::tab[Debian]',
      'Debian service file.',
      ':::',
      ':::tab[Red Hat]{value="rhel"}',
      'Red Hat service file.',
      ':::',
      '::::',
      '',
      'See [the second page](./second.md).',
      '',
    ].join('\n'),
  ),
}

export const siteConfig = {
  ...baseConfig,
  announcementBar: { id: 'release-1', content: 'Keyward 1.0 is out.', isCloseable: true },
}

export interface ServedSite {
  url(path: string): string
  /** The build output (holds `docs/`). */
  out: string
}

/** Builds the site (optionally with config overrides) and serves it until the test ends. */
export const serveSite = async (
  t: Teardown,
  config: object = {},
  docs: Record<string, string> = siteDocs,
): Promise<ServedSite> => {
  const site = createSite(t, docs, { config: { ...siteConfig, ...config } })
  await build({ root: site.root, outDir: site.out, workers: 1 })
  const server: RunningServer = await startServer({
    root: site.root,
    port: 0,
    host: '127.0.0.1',
    dir: site.out,
  })
  t.teardown(() => server.close())
  return { url: (path) => new URL(path, server.url).href, out: site.out }
}

/**
 * Serves the site (built with each of `configs`) for all tests of a file: built before the
 * first test, closed with the browser after the last. Returns the sites once the hook has run.
 */
export const serveSitesForFile = (
  test: import('ava').TestFn,
  closeBrowser: () => Promise<void>,
  ...configs: object[]
): (() => ServedSite[]) => {
  const cleanups = new Cleanups()
  const sites: ServedSite[] = []
  test.before(async () => {
    for (const config of configs.length ? configs : [{}])
      sites.push(await serveSite(cleanups, config))
  })
  test.after.always(async () => {
    await closeBrowser()
    await cleanups.run()
  })
  return () => sites
}
