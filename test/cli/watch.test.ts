// The dev server's watcher: every save is reported, also one that follows the last within the
// 50 ms in which chokidar drops a file's second change.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import test from 'ava'
import { watch } from '../../cli/serve/watch.ts'

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

test('saves 20 ms apart are each followed by a reported change', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'keyward-watch-'))
  const file = join(dir, 'page.md')
  writeFileSync(file, 'start\n')
  const reports: number[] = []
  const watcher = watch({
    paths: [dir],
    onChange: (changes) => {
      if (changes.some((change) => change.path === file)) reports.push(performance.now())
    },
  })
  t.teardown(async () => {
    await watcher.close()
    rmSync(dir, { recursive: true, force: true })
  })
  await new Promise<void>((resolve) => watcher.once('ready', () => resolve()))
  let missed = 0
  for (let i = 0; i < 10; i++) {
    writeFileSync(file, `edit ${i}\n`)
    const saved = performance.now()
    await sleep(20)
    writeFileSync(file, `edit ${i} again\n`)
    const savedAgain = performance.now()
    await sleep(200)
    if (!reports.some((at) => at > savedAgain)) missed++
    t.true(reports.some((at) => at > saved && at < savedAgain + 200))
  }
  t.is(missed, 0, 'a report after each second save')
})
