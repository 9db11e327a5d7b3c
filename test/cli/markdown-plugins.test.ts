// The site's own remark and rehype plugins (`markdown` in site.config.ts): real packages from npm
// (remark-math, rehype-katex) and the site's own TypeScript files, where they run in the
// pipeline, the build cache following them, and failures naming the plugin and the doc.
import { symlinkSync } from 'node:fs'
import { join } from 'node:path'
import test from 'ava'
import { build } from '../../cli/build.ts'
import { BuildFailedError } from '../../cli/errors.ts'
import { baseConfig, createSite, doc, type Teardown } from '../helpers/site.ts'

const repoModules = new URL('../../node_modules', import.meta.url).pathname

// Sees the tree after Keyward's remark steps: the note is an aside already. Claims `:::spoiler`
// (rendered as <details>) the way directive plugins do (data.hName). Appends its `suffix` option
// to every heading.
const LOCAL_REMARK = `
type Node = { type: string; name?: string; value?: string; data?: { hName?: string }; children?: Node[] }
const walk = (node: Node, visit: (node: Node) => void) => {
  visit(node)
  for (const child of node.children ?? []) walk(child, visit)
}
export default function remarkLocal(options: { suffix: string }) {
  return (tree: Node) =>
    walk(tree, (node) => {
      if (node.type === 'containerDirective' && node.data?.hName === 'aside')
        node.children?.push({ type: 'paragraph', children: [{ type: 'text', value: 'after Keyward' }] })
      if (node.type === 'containerDirective' && node.name === 'spoiler') node.data = { hName: 'details' }
      if (node.type === 'heading') node.children?.push({ type: 'text', value: options.suffix })
    })
}
`

// Runs before Keyward's rehype steps: headings have no id yet.
const LOCAL_REHYPE = `
type Element = { type: string; tagName?: string; properties?: Record<string, unknown>; children?: Element[]; value?: string }
const walk = (node: Element, visit: (node: Element) => void) => {
  visit(node)
  for (const child of node.children ?? []) walk(child, visit)
}
export default function rehypeLocal() {
  return (tree: Element) =>
    walk(tree, (node) => {
      if (node.tagName === 'h2' && node.properties?.id === undefined)
        node.children?.push({ type: 'text', value: ' before ids' })
    })
}
`

const THROWING = `
export default function remarkThrows() {
  return (_tree: unknown, file: { value: unknown }) => {
    if (String(file.value).includes('boom')) throw new Error('cannot handle boom')
  }
}
`

const CHECKS_OPTIONS = `
export default function remarkLevel(options: { level?: unknown }) {
  if (typeof options?.level !== 'number') throw new Error('level must be a number')
}
`

const DETAILS = doc({ title: 'Details' }, 'Intro.\n\n:::spoiler\nMore\n:::\n')

const pluginSite = (t: Teardown, markdown: object, docs: Record<string, string> = {}) => {
  const site = createSite(
    t,
    {
      'guide/index.md': doc(
        { title: 'Guide' },
        'Energy: $E = mc^2$.\n\n## Section\n\n:::note\nBody\n:::\n',
      ),
      'guide/other.md': doc({ title: 'Other' }, 'Plain text.\n'),
      ...docs,
    },
    {
      config: { ...baseConfig, markdown },
      files: {
        'content/plugins/remark-local.ts': LOCAL_REMARK,
        'content/plugins/rehype-local.ts': LOCAL_REHYPE,
        'content/plugins/remark-throws.ts': THROWING,
        'content/plugins/remark-level.ts': CHECKS_OPTIONS,
      },
    },
  )
  // Packages resolve from the site folder, as in a site with its own node_modules.
  symlinkSync(repoModules, join(site.root, 'node_modules'), 'dir')
  return site
}

test('npm plugins with options run in the pipeline: remark-math, then rehype-katex', async (t) => {
  const site = pluginSite(t, {
    remarkPlugins: ['remark-math'],
    rehypePlugins: [['rehype-katex', { output: 'mathml' }]],
  })
  const result = await build({ root: site.root, outDir: site.out, workers: 1 })
  t.deepEqual(result.errors, [])
  const html = site.read('docs/guide/index.html')
  t.regex(html, /<math[^>]*><semantics><mrow><mi>E<\/mi>/)
  t.false(html.includes('$E = mc^2$'))
  // Keyward's own steps still run around them.
  t.true(html.includes('admonition--note'))
  t.regex(html, /<h2 id="section"/)
})

test('a local TypeScript plugin runs after Keyward remark steps, a rehype one before its rehype steps', async (t) => {
  const site = pluginSite(
    t,
    {
      remarkPlugins: [['./plugins/remark-local.ts', { suffix: ' plus' }]],
      rehypePlugins: ['./plugins/rehype-local.ts'],
    },
    { 'guide/details.md': DETAILS },
  )
  const result = await build({ root: site.root, outDir: site.out, workers: 1 })
  t.deepEqual(result.errors, [])
  const html = site.read('docs/guide/index.html')
  t.regex(html, /admonition__body">\n<p>Body<\/p>\n<\/div><p>after Keyward<\/p><\/aside>/)
  // The heading got the remark suffix, then the rehype text, then its id from both.
  t.regex(html, /<h2 id="section-plus-before-ids"[^>]*>Section plus before ids</)
  // The plugin claimed `:::spoiler`, so it is no unknown directive.
  t.regex(
    site.read('docs/guide/details/index.html'),
    /<details><p>More<\/p><\/details>|<details>\n<p>More<\/p>\n<\/details>/,
  )
})

test('without the plugin, its directive is an unknown directive', async (t) => {
  const site = pluginSite(t, {}, { 'guide/details.md': DETAILS })
  const error = await t.throwsAsync(build({ root: site.root, outDir: site.out, workers: 1 }), {
    instanceOf: BuildFailedError,
  })
  t.deepEqual((error as BuildFailedError).diagnostics, [
    { file: 'content/docs/guide/details.md', line: 7, message: 'unknown directive ":::spoiler"' },
  ])
})

test('render workers load the plugins too', async (t) => {
  const many = Object.fromEntries(
    Array.from({ length: 160 }, (_, i) => [
      `guide/p${i}.md`,
      doc({ title: `P${i}` }, `$x_{${i}}$\n`),
    ]),
  )
  const site = pluginSite(
    t,
    {
      remarkPlugins: ['remark-math', ['./plugins/remark-local.ts', { suffix: '!' }]],
      rehypePlugins: [['rehype-katex', { output: 'mathml' }]],
    },
    many,
  )
  const result = await build({ root: site.root, outDir: site.out, workers: 2, cacheDir: false })
  t.deepEqual(result.errors, [])
  t.regex(site.read('docs/guide/p159/index.html'), /<msub><mi>x<\/mi><mn>159<\/mn><\/msub>/)
})

test('the build cache follows the plugins: their options and their files', async (t) => {
  const site = pluginSite(t, { remarkPlugins: [['./plugins/remark-local.ts', { suffix: ' one' }]] })
  const options = { root: site.root, outDir: site.out, workers: 1 }
  t.is((await build(options)).cached, 0)
  t.is((await build(options)).cached, 2)
  t.regex(site.read('docs/guide/index.html'), /<h2 id="section-one"/)

  site.write(
    'content/site.config.ts',
    `export default ${JSON.stringify({ ...baseConfig, markdown: { remarkPlugins: [['./plugins/remark-local.ts', { suffix: ' two' }]] } })}\n`,
  )
  t.is((await build(options)).cached, 0)
  t.regex(site.read('docs/guide/index.html'), /<h2 id="section-two"/)

  site.write('content/plugins/remark-local.ts', LOCAL_REMARK.replace('options.suffix', "'!'"))
  t.is((await build(options)).cached, 0)
  t.regex(site.read('docs/guide/index.html'), /<h2 id="section"[^>]*>Section!</)
  t.is((await build(options)).cached, 2)
})

test('a plugin that throws fails the build, naming the plugin and the doc', async (t) => {
  const site = pluginSite(
    t,
    { remarkPlugins: ['remark-math', './plugins/remark-throws.ts'] },
    { 'guide/boom.md': doc({ title: 'Boom' }, 'This goes boom.\n') },
  )
  const error = await t.throwsAsync(build({ root: site.root, outDir: site.out, workers: 1 }), {
    instanceOf: BuildFailedError,
  })
  t.deepEqual((error as BuildFailedError).diagnostics, [
    {
      file: 'content/docs/guide/boom.md',
      line: undefined,
      message: 'remark plugin "./plugins/remark-throws.ts" failed: cannot handle boom',
    },
  ])
})

test('a plugin that cannot be found, or rejects its options, fails the build naming it', async (t) => {
  const missing = pluginSite(t, { rehypePlugins: ['rehype-not-installed-anywhere'] })
  const error = await t.throwsAsync(build({ root: missing.root, outDir: missing.out, workers: 1 }))
  t.regex(
    error!.message,
    /content\/site\.config\.ts: markdown\.rehypePlugins\.0: cannot find "rehype-not-installed-anywhere"/,
  )

  const badOptions = pluginSite(t, {
    remarkPlugins: [['./plugins/remark-level.ts', { level: 'high' }]],
  })
  const refused = await t.throwsAsync(
    build({ root: badOptions.root, outDir: badOptions.out, workers: 1 }),
  )
  t.is(
    refused!.message,
    'content/site.config.ts: remark plugin "./plugins/remark-level.ts" failed: level must be a number',
  )
})
