// Benchmark: where one page's build time goes, on one core, over the synthetic corpus:
// remark-parse alone (with GFM and directives), the whole Markdown pipeline, and React page
// rendering. It shows the ceiling the parser puts on `docs build` throughput.
// Usage: node bin/run.js bench/markdown-stages.ts [--pages 400]
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'
import remarkDirective from 'remark-directive'
import remarkGfm from 'remark-gfm'
import remarkParse from 'remark-parse'
import { unified } from 'unified'
import { listMarkdownFiles } from '../cli/content.ts'
import { createProcessor, renderMarkdown } from '../cli/markdown.ts'
import { docPageModel } from '../cli/pages.ts'
import { renderDoc } from '../cli/render-doc.ts'
import { siteConfigSchema } from '../cli/site-config.ts'
import { renderPage } from '../templates/render.tsx'
import { baseConfig } from '../test/helpers/site.ts'
import { generateCorpus } from './generate-corpus.ts'

const { values } = parseArgs({ options: { pages: { type: 'string', default: '400' } } })
const dir = join(fileURLToPath(new URL('.', import.meta.url)), 'stages-corpus')
generateCorpus({ pages: Number(values.pages), out: dir })
const files = listMarkdownFiles(join(dir, 'content/docs'))
const sources = files.map((file) => readFileSync(file, 'utf8'))
const megabytes = sources.reduce((n, s) => n + s.length, 0) / 1e6

const time = (name: string, fn: () => void) => {
  fn() // warm up the JIT once
  const started = performance.now()
  fn()
  const ms = performance.now() - started
  console.log(
    `${name.padEnd(34)} ${(ms / files.length).toFixed(2)} ms/page  ${((files.length * 1000) / ms).toFixed(0)} pages/s  ${(megabytes / (ms / 1000)).toFixed(2)} MB/s`,
  )
  return ms
}

const parser = unified().use(remarkParse).use(remarkGfm).use(remarkDirective)
const processor = createProcessor({
  resolveLink: (url) => ({ url }),
  resolveImage: (url) => ({ url }),
})
console.log(
  `${files.length} pages, ${megabytes.toFixed(1)} MB of Markdown, one core, NODE_ENV=${process.env.NODE_ENV}`,
)
time('remark-parse + gfm + directive', () => {
  for (const s of sources) parser.parse(s)
})
time('whole Markdown pipeline to HTML', () => {
  for (const [i, s] of sources.entries()) renderMarkdown(processor, files[i], s)
})
const site = {
  config: siteConfigSchema.parse(baseConfig),
  assets: {
    css: '/a.css',
    js: '/a.js',
    searchWorker: '/w.js',
    searchPage: '/docs/assets/js/search-page.js',
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
  }
  return docPageModel(source, renderDoc(processor, source).rendered, undefined, undefined)
})
time('React page rendering (layout only)', () => {
  for (const page of pages) renderPage(site, page)
})
