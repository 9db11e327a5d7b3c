// Last-updated times come from git history of a real repository made in the test.
import { execFileSync } from 'node:child_process'
import { join } from 'node:path'
import test from 'ava'
import { build } from '../../cli/build.ts'
import { readLastUpdated } from '../../cli/content/git.ts'
import { createSite, doc } from '../helpers/site.ts'

const git = (cwd: string, args: string[], date?: string) =>
  execFileSync('git', args, {
    cwd,
    env: {
      ...process.env,
      GIT_AUTHOR_DATE: date,
      GIT_COMMITTER_DATE: date,
      GIT_AUTHOR_NAME: 'T',
      GIT_AUTHOR_EMAIL: 't@t',
      GIT_COMMITTER_NAME: 'T',
      GIT_COMMITTER_EMAIL: 't@t',
    },
  })

test('each page shows the time of the last commit that touched it, and no author', async (t) => {
  const site = createSite(t, {
    'guide/index.md': doc({ title: 'Guide' }),
    'guide/old.md': doc({ title: 'Old' }),
  })
  git(site.root, ['init', '-q'])
  git(site.root, ['add', '.'])
  git(site.root, ['commit', '-qm', 'first'], '2025-03-04T10:00:00Z')
  site.write('content/docs/guide/index.md', doc({ title: 'Guide' }, 'Changed.\n'))
  git(site.root, ['commit', '-qam', 'second'], '2025-06-07T12:00:00Z')

  const times = await readLastUpdated(join(site.root, 'content/docs'))
  t.is(
    times.get(join(site.root, 'content/docs/guide/index.md')),
    Date.parse('2025-06-07T12:00:00Z') / 1000,
  )
  t.is(
    times.get(join(site.root, 'content/docs/guide/old.md')),
    Date.parse('2025-03-04T10:00:00Z') / 1000,
  )

  await build({ root: site.root, outDir: site.out, workers: 1 })
  const html = site.read('docs/guide/old/index.html')
  t.true(
    html.includes('Last updated on <time dateTime="2025-03-04T10:00:00.000Z">Mar 4, 2025</time>'),
  )
  t.false(html.includes('T &lt;t@t&gt;') || html.includes(' by '))
})

test('outside a git work tree there is no last-updated time', async (t) => {
  const site = createSite(t, { 'guide/index.md': doc({ title: 'Guide' }) })
  const times = await readLastUpdated(join(site.root, 'content/docs'))
  // The temporary folder lives outside any repository.
  t.is(times.size, 0)
})
