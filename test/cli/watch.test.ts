// The dev server's watcher and reads: every save is reported, also one that follows the last
// within the 50 ms in which chokidar drops a file's second change, and a page read while it is
// being written is read again once written.
import { mkdtempSync, readFileSync, rmSync, truncateSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import test from 'ava'
import { readSettled } from '../../cli/content/settled-read.ts'
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

test('a file seen empty mid-write is reported once it holds its content, and a file left empty is reported too', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'keyward-watch-'))
  const file = join(dir, 'page.md')
  writeFileSync(file, '# Title\n\ntext\n')
  const seen: string[] = []
  const watcher = watch({
    paths: [dir],
    onChange: (changes) => {
      if (changes.some((change) => change.path === file)) seen.push(readFileSync(file, 'utf8'))
    },
  })
  t.teardown(async () => {
    await watcher.close()
    rmSync(dir, { recursive: true, force: true })
  })
  await new Promise<void>((resolve) => watcher.once('ready', () => resolve()))
  // An editor truncating the file, then writing it 30 ms later.
  truncateSync(file, 0)
  await sleep(30)
  writeFileSync(file, '# Title\n\nedited\n')
  await sleep(300)
  t.true(seen.length > 0, 'the save is reported')
  t.deepEqual(
    seen.filter((content) => content === ''),
    [],
    'no report while the file was empty',
  )
  t.is(seen.at(-1), '# Title\n\nedited\n')
  // An author who empties the file on purpose.
  seen.length = 0
  truncateSync(file, 0)
  await sleep(300)
  t.deepEqual(seen, [''], 'an empty file that stays empty is reported once')
})

test('a rebuild reading a page while its editor writes it waits for the written page', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'keyward-settle-'))
  t.teardown(() => rmSync(dir, { recursive: true, force: true }))
  const file = join(dir, 'page.md')
  writeFileSync(file, '')
  const reading = readSettled(file)
  setTimeout(() => writeFileSync(file, '# Title\n\ntext\n'), 10)
  t.is(await reading, '# Title\n\ntext\n')
  // A page its author emptied stays empty.
  writeFileSync(file, '')
  t.is(await readSettled(file), '')
  t.is(await readSettled(join(dir, 'missing.md')), undefined)
})
