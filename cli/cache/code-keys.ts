// The identity of the code a cached result came from: the Markdown pipeline, the templates and
// the search index each have a key made of their source files and the locked dependencies, so
// an edit of that code (or an upgrade) makes the cached results it decided stale.
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { sha256 } from './hash.ts'

/** Bump when the cache's own layout changes. */
export const FORMAT = 4
const CLI_DIR = fileURLToPath(new URL('../', import.meta.url))
const PACKAGE_ROOT = fileURLToPath(new URL('../../', import.meta.url))
const LOCKFILE = join(PACKAGE_ROOT, 'package-lock.json')

const filesBelow = (dir: string): string[] =>
  readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name))
    .sort()

const keyOfFiles = (files: string[], ...options: string[]) =>
  sha256(
    String(FORMAT),
    ...options,
    ...files.map((file) => (existsSync(file) ? readFileSync(file) : '')),
  )

/** Files whose code decides a doc's rendering or what the cache keeps of its source. */
export const pipelineFiles = (): string[] => [
  ...[
    'markdown/pipeline.ts',
    'markdown/site-plugins.ts',
    'render/render-doc.ts',
    'render/doc-renderer.ts',
    'render/doc-deps.ts',
    'markdown/links.ts',
    'content/pages.ts',
    // The parsed front matter is cached by the file's text: the schema's defaults are in here.
    'content/front-matter.ts',
    'content/content.ts',
    'cache/build-cache.ts',
    'cache/rendered-files.ts',
  ].map((name) => join(CLI_DIR, name)),
  ...filesBelow(join(CLI_DIR, 'markdown')),
  LOCKFILE,
]

/**
 * The pipeline's identity: its code, its dependencies, the site's Markdown plugins (`plugins`, their
 * key) and the options a rendering depends on.
 */
export const pipelineKey = (options: {
  baseUrl: string
  docsDir: string
  plugins: string
}): string => keyOfFiles(pipelineFiles(), options.baseUrl, options.docsDir, options.plugins)

/** Files whose code decides a page's HTML: every file below templates/, the page writer and the lockfile. */
export const templateFiles = (): string[] => [
  ...filesBelow(join(PACKAGE_ROOT, 'templates')),
  ...filesBelow(join(PACKAGE_ROOT, 'model')),
  join(CLI_DIR, 'output/output.ts'),
  join(CLI_DIR, 'output/site-output.ts'),
  join(CLI_DIR, 'output/assets.ts'),
  join(CLI_DIR, 'output/katex-assets.ts'),
  join(CLI_DIR, 'output/theme.ts'),
  LOCKFILE,
]

/** The templates' identity: the code of `templateFiles`. */
export const templatesKey = (): string => keyOfFiles(templateFiles())

/** The search index code's identity: how it tokenises and stores, and the locked packages. */
export const searchCodeKey = (): string =>
  keyOfFiles([
    join(PACKAGE_ROOT, 'templates/search/options.ts'),
    join(PACKAGE_ROOT, 'templates/search/sharded.ts'),
    join(CLI_DIR, 'search/search-index.ts'),
    join(CLI_DIR, 'search/search-postings.ts'),
    LOCKFILE,
  ])
