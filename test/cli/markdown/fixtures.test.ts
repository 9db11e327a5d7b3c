// Fixture pairs: each test/fixtures/markdown/<case>/input.md renders to output.html exactly.
// UPDATE_FIXTURES=1 rewrites the outputs; review the diff before committing.
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import test from 'ava'
import { render } from '../../helpers/markdown.ts'

const dir = new URL('../../fixtures/markdown/', import.meta.url).pathname

for (const name of readdirSync(dir)) {
  test(`markdown fixture: ${name}`, (t) => {
    const input = readFileSync(join(dir, name, 'input.md'), 'utf8')
    const expectedFile = join(dir, name, 'output.html')
    const { html, file } = render(input)
    t.deepEqual(
      file.messages.map((m) => m.reason),
      [],
    )
    if (process.env.UPDATE_FIXTURES || !existsSync(expectedFile))
      writeFileSync(expectedFile, `${html}\n`)
    t.is(`${html}\n`, readFileSync(expectedFile, 'utf8'))
  })
}
