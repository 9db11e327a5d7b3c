// The persistent build cache: each doc's Markdown rendering, keyed by a hash of its source (front
// matter and body), its route and the pipeline (the code of the Markdown steps, the locked
// dependency versions, the base URL), and kept only while the lookups it made (linked docs'
// routes, static files, images) still answer the same; plus the last search index and its
// input's hash. Stored as two V8-serialised files, the docs (`build-cache.bin`, written while
// the search index is still being made) and the other results with the record of the output
// (`build-results.bin`), except each doc's HTML: that is a file of its own
// (`html/<key>.html`), read only when its page is written.
import { createHash } from 'node:crypto'
import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { deserialize, serialize } from 'node:v8'
import { threadId } from 'node:worker_threads'
import type { DocSource, ParsedFrontMatter } from './content.ts'
import type { RenderOutcome } from './doc-renderer.ts'
import type { OutputRecord } from './output-writer.ts'

/** Bump when the cache's own layout changes. */
const FORMAT = 3
const CLI_DIR = fileURLToPath(new URL('./', import.meta.url))
const PACKAGE_ROOT = fileURLToPath(new URL('../', import.meta.url))

const filesBelow = (dir: string): string[] =>
  readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name))
    .sort()

/** Files whose code decides a doc's rendering or what the cache keeps of its source. */
export const pipelineFiles = (): string[] => [
  ...[
    'markdown.ts',
    'render-doc.ts',
    'doc-renderer.ts',
    'doc-deps.ts',
    'links.ts',
    'pages.ts',
    // The parsed front matter is cached by the file's text: the schema's defaults are in here.
    'front-matter.ts',
    'content.ts',
    'build-cache.ts',
  ].map((name) => join(CLI_DIR, name)),
  ...filesBelow(join(CLI_DIR, 'markdown')),
  join(PACKAGE_ROOT, 'package-lock.json'),
]

const sha256 = (...parts: (string | Buffer)[]) => {
  const hash = createHash('sha256')
  for (const part of parts) hash.update(part).update('\0')
  return hash.digest('hex')
}

/** The pipeline's identity: its code, its dependencies and the options a rendering depends on. */
export const pipelineKey = (options: { baseUrl: string; docsDir: string }): string =>
  sha256(
    String(FORMAT),
    options.baseUrl,
    options.docsDir,
    ...pipelineFiles().map((file) => (existsSync(file) ? readFileSync(file) : '')),
  )

const sourceKey = (source: DocSource) =>
  sha256(source.relPath, source.route, source.id, JSON.stringify(source.frontMatter), source.body)

interface CachedDoc {
  key: string
  /** The outcome with its HTML left out (it is in `html/<renderKey>.html`). */
  outcome: RenderOutcome
  /** Hash of the rendered doc: its page and the search index are keyed by it, not its text. */
  renderKey: string
}

/** A cached rendering and the key that stands for it. */
export interface CachedRendering {
  outcome: RenderOutcome
  renderKey: string
}

/** A key for a rendered doc (the key of its HTML file in the cache). */
export const renderKeyOf = (outcome: RenderOutcome): string => hashInput(outcome.result.rendered)

interface Stamped {
  format: number
  pipeline: string
}

interface DocsData extends Stamped {
  docs: Record<string, CachedDoc>
  /** Parsed front matter by a hash of the file's path and text. */
  frontMatters: Record<string, ParsedFrontMatter>
}

interface ResultsData extends Stamped {
  /** Other results by name (the client bundle, the search index), each with its input's key. */
  entries: Record<string, { key: string; value: unknown }>
  /** What the last build wrote, and where. */
  output?: OutputRecord
}

/** One of the cache's files: its data, kept only when it was written for this pipeline. */
class CacheFile<T extends Stamped> {
  data: T
  changed = false

  constructor(
    private readonly file: string,
    pipeline: string,
    empty: T,
  ) {
    let data: T | undefined
    try {
      if (existsSync(file)) data = deserialize(readFileSync(file)) as T
    } catch {
      data = undefined // an unreadable cache is a cold build
    }
    this.data = data?.format === FORMAT && data.pipeline === pipeline ? data : empty
  }

  save(): void {
    if (!this.changed) return
    mkdirSync(dirname(this.file), { recursive: true })
    writeAtomically(this.file, serialize(this.data))
    this.changed = false
  }
}

export class BuildCache {
  private readonly docsFile: CacheFile<DocsData>
  private readonly resultsFile: CacheFile<ResultsData>
  private readonly used = new Set<string>()
  private readonly usedFrontMatters = new Set<string>()
  private readonly htmlDir: string
  /** Set once the HTML folder is known to exist: a cold build stores thousands of docs. */
  private htmlDirMade = false

  private constructor(dir: string, pipeline: string) {
    const stamp = { format: FORMAT, pipeline }
    this.docsFile = new CacheFile(join(dir, 'build-cache.bin'), pipeline, {
      ...stamp,
      docs: {},
      frontMatters: {},
    })
    this.resultsFile = new CacheFile(join(dir, 'build-results.bin'), pipeline, {
      ...stamp,
      entries: {},
    })
    this.htmlDir = join(dir, 'html')
  }

  private get docs(): DocsData {
    return this.docsFile.data
  }

  private get results(): ResultsData {
    return this.resultsFile.data
  }

  /** Opens the cache file in `dir` for this pipeline; a stale cache starts empty. */
  static open(dir: string, pipeline: string): BuildCache {
    return new BuildCache(dir, pipeline)
  }

  /** Parsed front matter, kept for the docs this build reads. */
  readonly frontMatters = {
    get: (key: string): ParsedFrontMatter | undefined => {
      const known = this.docs.frontMatters[key]
      if (known) this.usedFrontMatters.add(key)
      return known
    },
    set: (key: string, value: ParsedFrontMatter): void => {
      this.docs.frontMatters[key] = value
      this.usedFrontMatters.add(key)
      this.docsFile.changed = true
    },
  } as Map<string, ParsedFrontMatter>

  private htmlFile(renderKey: string): string {
    return join(this.htmlDir, `${renderKey}.html`)
  }

  /**
   * The cached rendering of `source`, if it still holds (`holds` checks its lookups). Its HTML
   * is read from its file when first asked for.
   */
  lookup(
    source: DocSource,
    holds: (outcome: RenderOutcome) => boolean,
  ): CachedRendering | undefined {
    this.used.add(source.relPath)
    const cached = this.docs.docs[source.relPath]
    if (!cached || cached.key !== sourceKey(source) || !holds(cached.outcome)) return undefined
    const file = this.htmlFile(cached.renderKey)
    if (!existsSync(file)) return undefined
    const { result } = cached.outcome
    let html: string | undefined
    const rendered = Object.defineProperty({ ...result.rendered }, 'html', {
      enumerable: true,
      get: () => {
        html ??= readFileSync(file, 'utf8')
        return html
      },
    })
    return {
      outcome: { ...cached.outcome, result: { ...result, rendered } },
      renderKey: cached.renderKey,
    }
  }

  store(source: DocSource, outcome: RenderOutcome, renderKey: string): void {
    this.used.add(source.relPath)
    const { html, ...rendered } = outcome.result.rendered
    const file = this.htmlFile(renderKey)
    if (!existsSync(file)) {
      if (!this.htmlDirMade) mkdirSync(this.htmlDir, { recursive: true })
      this.htmlDirMade = true
      writeAtomically(file, html)
    }
    this.docs.docs[source.relPath] = {
      key: sourceKey(source),
      outcome: { ...outcome, result: { ...outcome.result, rendered: { ...rendered, html: '' } } },
      renderKey,
    }
    this.docsFile.changed = true
  }

  /** Whether any result `name` is kept. */
  hasEntry(name: string): boolean {
    return name in this.results.entries
  }

  /** The result `name` last computed from input `key`, if any. */
  entry<T>(name: string, key: string): T | undefined {
    const entry = this.results.entries[name]
    return entry?.key === key ? (entry.value as T) : undefined
  }

  storeEntry(name: string, key: string, value: unknown): void {
    this.results.entries[name] = { key, value }
    this.resultsFile.changed = true
  }

  get output(): OutputRecord | undefined {
    return this.results.output
  }

  /** Records what this build wrote; `changed` says whether any file was written or removed. */
  setOutput(record: OutputRecord, changed: boolean): void {
    this.results.output = record
    this.resultsFile.changed ||= changed
  }

  /**
   * Writes the docs' part when it changed, dropping docs this build did not see (the build
   * calls it once every doc is rendered, while the search index is being made).
   */
  saveDocs(): void {
    for (const relPath of Object.keys(this.docs.docs))
      if (!this.used.has(relPath)) {
        delete this.docs.docs[relPath]
        this.docsFile.changed = true
      }
    for (const key of Object.keys(this.docs.frontMatters))
      if (!this.usedFrontMatters.has(key)) {
        delete this.docs.frontMatters[key]
        this.docsFile.changed = true
      }
    if (!this.docsFile.changed) return
    this.docsFile.save()
    const kept = new Set(Object.values(this.docs.docs).map((doc) => `${doc.renderKey}.html`))
    if (existsSync(this.htmlDir))
      for (const name of readdirSync(this.htmlDir))
        if (!kept.has(name)) rmSync(join(this.htmlDir, name), { force: true })
  }

  /** Writes whatever changed. */
  save(): void {
    this.saveDocs()
    this.resultsFile.save()
  }
}

/** Written aside and renamed, so a build stopped half-way never leaves half a file. */
const writeAtomically = (file: string, content: string | Uint8Array) => {
  const temporary = `${file}.${process.pid}.${threadId}.tmp`
  writeFileSync(temporary, content)
  renameSync(temporary, file)
}

/** A key for any JSON-able input. */
export const hashInput = (value: unknown): string => sha256(JSON.stringify(value))

/** Files whose code decides a page's HTML: every file below templates/, the page writer and the lockfile. */
export const templateFiles = (): string[] => [
  ...filesBelow(join(PACKAGE_ROOT, 'templates')),
  join(CLI_DIR, 'output.ts'),
  join(CLI_DIR, 'site-output.ts'),
  join(CLI_DIR, 'assets.ts'),
  join(PACKAGE_ROOT, 'package-lock.json'),
]

/** The templates' identity: the code of `templateFiles`. */
export const templatesKey = (): string =>
  sha256(
    String(FORMAT),
    ...templateFiles().map((file) => (existsSync(file) ? readFileSync(file) : '')),
  )

/** The search index code's identity: how it tokenises and stores, and the locked packages. */
export const searchCodeKey = (): string =>
  sha256(
    String(FORMAT),
    ...[
      join(PACKAGE_ROOT, 'templates/search/options.ts'),
      join(PACKAGE_ROOT, 'templates/search/sharded.ts'),
      join(CLI_DIR, 'search-index.ts'),
      join(PACKAGE_ROOT, 'package-lock.json'),
    ].map((file) => (existsSync(file) ? readFileSync(file) : '')),
  )
