// The import graph keeps the plugin boundaries: a plugin reaches another only through that
// plugin's index.ts and only when its `dependsOn` or `reads` names it; the core imports nothing from the
// plugins except where the plugin list is assembled.
import { readdirSync, readFileSync, statSync } from 'node:fs'
import { join, relative, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import test from 'ava'
import { plugins } from '../../plugins/index.ts'

const root = fileURLToPath(new URL('../..', import.meta.url))

const sources = (dir: string): string[] =>
  readdirSync(dir).flatMap((name) => {
    const path = join(dir, name)
    if (statSync(path).isDirectory()) return sources(path)
    return /\.tsx?$/.test(name) ? [path] : []
  })

/** Relative imports of a file (static, dynamic and re-exports), resolved to repository paths. */
const importsOf = (file: string): string[] => {
  const text = readFileSync(file, 'utf8')
  const specifiers = [
    ...text.matchAll(/(?:import|export)\s[^'"]*?from\s+['"](\.[^'"]+)['"]/g),
    ...text.matchAll(/import\(\s*['"](\.[^'"]+)['"]\s*\)/g),
    ...text.matchAll(/^import\s+['"](\.[^'"]+)['"]/gm),
  ].map((match) => match[1])
  return specifiers.map((specifier) => relative(root, resolve(file, '..', specifier)))
}

const pluginOf = (path: string) => /^plugins\/([^/]+)\//.exec(path)?.[1]

test('plugins import other plugins only through index.ts, and only those they depend on or read', (t) => {
  const dependsOn = new Map(
    plugins.map((plugin) => [plugin.name, [...(plugin.dependsOn ?? []), ...(plugin.reads ?? [])]]),
  )
  const folderToName = new Map<string, string>()
  for (const file of sources(join(root, 'plugins'))) {
    const folder = pluginOf(relative(root, file))
    if (folder && relative(root, file) === `plugins/${folder}/index.ts`) {
      const name = /name:\s*'([^']+)'/.exec(readFileSync(file, 'utf8'))?.[1]
      if (name) folderToName.set(folder, name)
    }
  }
  const problems: string[] = []
  for (const file of sources(join(root, 'plugins'))) {
    const from = relative(root, file)
    const own = pluginOf(from)
    if (!own) continue
    for (const target of importsOf(file)) {
      const other = pluginOf(target)
      if (!other || other === own) continue
      if (target !== `plugins/${other}/index.ts`)
        problems.push(`${from} reaches into ${target} (import plugins/${other}/index.ts)`)
      const ownName = folderToName.get(own) ?? own
      const otherName = folderToName.get(other) ?? other
      if (!dependsOn.get(ownName)?.includes(otherName))
        problems.push(
          `${from} imports plugin "${otherName}" that "${ownName}" neither depends on nor reads`,
        )
    }
  }
  t.deepEqual(problems, [])
})

test('the core imports nothing from the plugins but the plugin list, in the CLI that assembles it', (t) => {
  const problems: string[] = []
  for (const file of sources(join(root, 'api'))) {
    const from = relative(root, file)
    for (const target of importsOf(file))
      if (
        target.startsWith('plugins/') &&
        !(from === 'api/cli.ts' && target === 'plugins/index.ts')
      )
        problems.push(`${from} imports ${target}`)
  }
  t.deepEqual(problems, [])
})

test('the check sees a deep import when there is one', (t) => {
  // Guards the test itself: a known relative import must resolve to a repository path.
  t.true(importsOf(join(root, 'plugins/jwt/index.ts')).includes('plugins/users/index.ts'))
})
