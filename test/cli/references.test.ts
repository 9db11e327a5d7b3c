// The generated reference pages match the code they are generated from, and every setting,
// variable and command the code defines has its line in them.
import { readdirSync, readFileSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import test from 'ava'
import { createProgram as createApiProgram } from '../../api/cli.ts'
import { ENV } from '../../api/config.ts'
import { createProgram as createDocsProgram } from '../../cli/index.ts'
import { COMMAND_GUIDES } from '../../cli/references/command-guides.ts'
import { escapeProse } from '../../cli/references/commands.ts'
import {
  INTERNAL_VARIABLES,
  OTHER_VARIABLES,
  settingRows,
} from '../../cli/references/environment.ts'
import { generateReferences } from '../../cli/references/references.ts'

const root = fileURLToPath(new URL('../..', import.meta.url))

const sources = (dir: string): string[] =>
  readdirSync(join(root, dir)).flatMap((name) => {
    const path = join(dir, name)
    if (statSync(join(root, path)).isDirectory()) return sources(path)
    return /\.(ts|tsx|js)$/.test(name) ? [path] : []
  })

test('each generated page is the committed one (run npm run docs:references after changing the code)', async (t) => {
  const pages = await generateReferences()
  t.true(pages.length >= 12)
  for (const page of pages)
    t.is(
      readFileSync(join(root, 'content/docs', page.path), 'utf8'),
      page.markdown,
      `content/docs/${page.path} is out of date: run npm run docs:references`,
    )
})

test('every setting of the configuration schema has a meaning on the environment page', async (t) => {
  const rows = settingRows()
  t.deepEqual(rows.map((row) => row.field).sort(), Object.keys(ENV).sort())
  for (const row of rows) t.truthy(row.description, `${row.variable} needs a description`)
  const page = (await generateReferences())[0].markdown
  for (const row of rows) t.true(page.includes(`| \`${row.variable}\` | \`${row.field}\` |`))
  // Defaults are read from the schema, sizes shown the way they are written.
  t.true(
    page.includes('| `KEYWARD_BODY_LIMIT` | `bodyLimit` | size: bytes, `kb` or `mb` | `5mb` |'),
  )
  t.true(page.includes('| `KEYWARD_PORT` | `port` | whole number, 0 to 65535 | `8080` |'))
})

test('every environment variable the programs read is documented, or declared internal', async (t) => {
  const documented = new Set([
    ...Object.values(ENV),
    ...OTHER_VARIABLES.map((v) => v.name),
    ...INTERNAL_VARIABLES,
  ])
  const read = new Set<string>()
  for (const file of ['api', 'plugins', 'bin', 'cli'].flatMap(sources)) {
    const text = readFileSync(join(root, file), 'utf8')
    for (const match of text.matchAll(/process\.env\.([A-Z][A-Z0-9_]+)/g)) read.add(match[1])
  }
  t.true(read.size >= 8)
  for (const name of read) t.true(documented.has(name), `${name} is read but not documented`)
  const page = (await generateReferences())[0].markdown
  for (const variable of OTHER_VARIABLES) t.true(page.includes(`| \`${variable.name}\` |`))
})

test('every command has a page listing each of its flags, and notes on using it', async (t) => {
  const pages = await generateReferences()
  const leaves = (
    command: ReturnType<typeof createApiProgram>,
    prefix: string,
  ): [string, ReturnType<typeof createApiProgram>][] =>
    command.commands.flatMap((sub) =>
      sub.commands.length
        ? leaves(sub, `${prefix} ${sub.name()}`)
        : [[`${prefix} ${sub.name()}`, sub] as [string, ReturnType<typeof createApiProgram>]],
    )
  const commands = [...leaves(createApiProgram(), 'api'), ...leaves(createDocsProgram(), 'docs')]
  t.true(commands.length >= 10)
  t.deepEqual(Object.keys(COMMAND_GUIDES).sort(), commands.map(([name]) => name).sort())
  for (const [name, command] of commands) {
    const page = pages.find((p) => p.markdown.includes(`title: ${name}\n`))
    if (!page) {
      t.fail(`no page for ${name}`)
      continue
    }
    for (const option of command.options)
      t.true(
        page.markdown.includes(`| \`${option.flags}\` | ${escapeProse(option.description)} |`),
        `${name} ${option.flags}`,
      )
    for (const argument of command.registeredArguments)
      t.true(page.markdown.includes(`| \`${argument.name()}\` |`), `${name} <${argument.name()}>`)
  }
  const index = pages.find((p) => p.path.endsWith('cli-reference/index.md'))
  for (const [name] of commands) t.true(index?.markdown.includes(`[\`${name}\`]`), name)
})
