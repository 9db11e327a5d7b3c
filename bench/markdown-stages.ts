// Benchmark: where one page's build time goes, on one core, over the synthetic corpus: parsing
// (remark-parse with GFM and directives), the whole Markdown pipeline, each step of the pipeline
// after the parser, and React page rendering.
// Usage: node bin/run.js bench/markdown-stages.ts [--pages 400]
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'
import type { Root as HastRoot } from 'hast'
import type { Root as MdastRoot } from 'mdast'
import { type Plugin, type Processor, unified } from 'unified'
import type { Node } from 'unist'
import { VFile } from 'vfile'
import { listMarkdownFiles } from '../cli/content/content.ts'
import { docPageModel } from '../cli/content/pages.ts'
import { normalizeDirectiveTitles } from '../cli/markdown/directive-titles.ts'
import { createProcessor, renderMarkdown } from '../cli/markdown/pipeline.ts'
import { renderDoc } from '../cli/render/render-doc.ts'
import { siteConfigSchema } from '../model/site-config.ts'
import { renderPage } from '../templates/render.tsx'
import { baseConfig } from '../test/helpers/site.ts'
import { generateCorpus } from './generate-corpus.ts'

const { values } = parseArgs({ options: { pages: { type: 'string', default: '400' } } })
const dir = join(fileURLToPath(new URL('.', import.meta.url)), 'stages-corpus')
generateCorpus({ pages: Number(values.pages), out: dir })
const files = listMarkdownFiles(join(dir, 'content/docs'))
const sources = files.map((file) => readFileSync(file, 'utf8'))
const megabytes = sources.reduce((n, s) => n + s.length, 0) / 1e6

const report = (name: string, ms: number, cpuMs?: number) =>
  console.log(
    `${name.padEnd(40)} ${(ms / files.length).toFixed(2)} ms/page  ${((files.length * 1000) / ms).toFixed(0)} pages/s  ${(megabytes / (ms / 1000)).toFixed(2)} MB/s${cpuMs === undefined ? '' : `  CPU ${(cpuMs / files.length).toFixed(2)} ms/page`}`,
  )

/** Wall time, and the process's CPU time beside it: the steadier figure on a shared machine. */
const time = (name: string, fn: () => void) => {
  fn() // warm up the JIT once
  const started = performance.now()
  const cpu = process.cpuUsage()
  fn()
  const { user, system } = process.cpuUsage(cpu)
  report(name, performance.now() - started, (user + system) / 1000)
}

const resolvers = {
  resolveLink: (url: string) => ({ url }),
  resolveImage: (url: string) => ({ url }),
}
const processor = createProcessor(resolvers)
console.log(
  `${files.length} pages, ${megabytes.toFixed(1)} MB of Markdown, one core, NODE_ENV=${process.env.NODE_ENV}`,
)
time('parse: remark-parse + gfm + directive', () => {
  for (const s of sources) processor.parse(s)
})
time('whole Markdown pipeline', () => {
  for (const [i, s] of sources.entries()) renderMarkdown(processor, files[i], s)
})

// Each step of the pipeline, timed inside one run of it: the same plugins with their
// transformers wrapped, so the order stays the one createProcessor defines.
const stageMs = new Map<string, number>()
const add = (name: string, ms: number) => stageMs.set(name, (stageMs.get(name) ?? 0) + ms)
type Transformer = (this: unknown, tree: Node, file: VFile) => Node | undefined
const timedPlugin = (plugin: Plugin<unknown[]>, name: string) =>
  function (this: Processor, ...options: unknown[]) {
    const transformer = (plugin as (...a: unknown[]) => Transformer | undefined).apply(
      this,
      options,
    )
    if (!transformer) return undefined
    return function (this: unknown, tree: Node, file: VFile) {
      const started = performance.now()
      const result = transformer.call(this, tree, file)
      add(name, performance.now() - started)
      return result
    }
  }
const staged = unified()
for (const [plugin, ...options] of processor.attachers)
  staged.use(timedPlugin(plugin as Plugin<unknown[]>, plugin.name || 'anonymous'), ...options)
const runStaged = () => {
  for (const [i, s] of sources.entries()) {
    let started = performance.now()
    const file = new VFile({ path: files[i], value: normalizeDirectiveTitles(s) })
    const mdast = staged.parse(file) as MdastRoot
    add('parse', performance.now() - started)
    const hast = staged.runSync(mdast, file) as HastRoot
    started = performance.now()
    staged.stringify(hast, file)
    add('stringify', performance.now() - started)
  }
}
runStaged() // warm up
stageMs.clear()
runStaged()
for (const [name, ms] of stageMs) report(`  stage: ${name}`, ms)

const site = {
  config: siteConfigSchema.parse(baseConfig),
  assets: {
    css: '/a.css',
    js: '/a.js',
    searchWorker: '/w.js',
    searchPage: '/docs/assets/js/search-page.js',
    mathCss: '/docs/assets/css/katex.css',
    preload: [],
    sidebars: {},
  },
  sidebars: {},
}
const pages = files.map((file, i) => {
  const source = {
    file,
    displayPath: file,
    relPath: `p${i}.md`,
    dir: '',
    id: `p${i}`,
    isIndex: false,
    route: `/docs/p${i}/`,
    frontMatter: {
      unlisted: false,
      hide_table_of_contents: false,
      toc_min_heading_level: 2,
      toc_max_heading_level: 3,
      keywords: [],
    },
    body: sources[i],
    textKey: '',
  }
  return docPageModel(source, renderDoc(processor, source).rendered, undefined, undefined)
})
time('React page rendering (layout only)', () => {
  for (const page of pages) renderPage(site, page)
})
