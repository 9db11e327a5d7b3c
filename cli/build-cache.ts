// The persistent build cache: each doc's Markdown rendering, keyed by a hash of its source (front
// matter and body), its route and the pipeline (the code of the Markdown steps, the locked
// dependency versions, the base URL), and kept only while the lookups it made (linked docs'
// routes, static files, images) still answer the same; plus the last search index and its
// input's hash. Stored as one V8-serialised file.
import { createHash } from 'node:crypto'
import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
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
const FORMAT = 2
const CLI_DIR = fileURLToPath(new URL('./', import.meta.url))
const PACKAGE_ROOT = fileURLToPath(new URL('../', import.meta.url))

/** Files whose code decides a doc's rendering. */
const pipelineFiles = (): string[] => [
  ...[
    'markdown.ts',
    'render-doc.ts',
    'doc-renderer.ts',
    'links.ts',
    'pages.ts',
    'build-cache.ts',
  ].map((name) => join(CLI_DIR, name)),
  ...readdirSync(join(CLI_DIR, 'markdown'))
    .sort()
    .map((name) => join(CLI_DIR, 'markdown', name)),
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
  outcome: RenderOutcome
  /** Hash of the rendered HTML: pages are keyed by it instead of the HTML itself. */
  htmlKey: string
}

interface CacheData {
  format: number
  pipeline: string
  docs: Record<string, CachedDoc>
  /** Other results by name (the client bundle, the search index), each with its input's key. */
  entries: Record<string, { key: string; value: unknown }>
  /** What the last build wrote, and where. */
  output?: OutputRecord
  /** Parsed front matter by a hash of the file's path and text. */
  frontMatters: Record<string, ParsedFrontMatter>
}

export class BuildCache {
  private data: CacheData
  private changed = false
  private readonly used = new Set<string>()
  private readonly usedFrontMatters = new Set<string>()

  private constructor(
    private readonly file: string,
    pipeline: string,
  ) {
    let data: CacheData | undefined
    try {
      if (existsSync(file)) data = deserialize(readFileSync(file)) as CacheData
    } catch {
      data = undefined // an unreadable cache is a cold build
    }
    this.data =
      data?.format === FORMAT && data.pipeline === pipeline
        ? data
        : { format: FORMAT, pipeline, docs: {}, entries: {}, frontMatters: {} }
  }

  /** Opens the cache file in `dir` for this pipeline; a stale cache starts empty. */
  static open(dir: string, pipeline: string): BuildCache {
    return new BuildCache(join(dir, 'build-cache.bin'), pipeline)
  }

  /** Parsed front matter, kept for the docs this build reads. */
  readonly frontMatters = {
    get: (key: string): ParsedFrontMatter | undefined => {
      const known = this.data.frontMatters[key]
      if (known) this.usedFrontMatters.add(key)
      return known
    },
    set: (key: string, value: ParsedFrontMatter): void => {
      this.data.frontMatters[key] = value
      this.usedFrontMatters.add(key)
      this.changed = true
    },
  } as Map<string, ParsedFrontMatter>

  /** The cached rendering of `source`, if it still holds (`holds` checks its lookups). */
  lookup(
    source: DocSource,
    holds: (outcome: RenderOutcome) => boolean,
  ): { outcome: RenderOutcome; htmlKey: string } | undefined {
    this.used.add(source.relPath)
    const cached = this.data.docs[source.relPath]
    if (!cached || cached.key !== sourceKey(source) || !holds(cached.outcome)) return undefined
    return cached
  }

  store(source: DocSource, outcome: RenderOutcome, htmlKey: string): void {
    this.used.add(source.relPath)
    this.data.docs[source.relPath] = { key: sourceKey(source), outcome, htmlKey }
    this.changed = true
  }

  /** The result `name` last computed from input `key`, if any. */
  entry<T>(name: string, key: string): T | undefined {
    const entry = this.data.entries[name]
    return entry?.key === key ? (entry.value as T) : undefined
  }

  storeEntry(name: string, key: string, value: unknown): void {
    this.data.entries[name] = { key, value }
    this.changed = true
  }

  get output(): OutputRecord | undefined {
    return this.data.output
  }

  /** Records what this build wrote; `changed` says whether any file was written or removed. */
  setOutput(record: OutputRecord, changed: boolean): void {
    this.data.output = record
    this.changed ||= changed
  }

  /** Writes the cache when anything changed, dropping docs this build did not see. */
  save(): void {
    for (const relPath of Object.keys(this.data.docs))
      if (!this.used.has(relPath)) {
        delete this.data.docs[relPath]
        this.changed = true
      }
    for (const key of Object.keys(this.data.frontMatters))
      if (!this.usedFrontMatters.has(key)) {
        delete this.data.frontMatters[key]
        this.changed = true
      }
    if (!this.changed) return
    mkdirSync(dirname(this.file), { recursive: true })
    // Written aside and renamed, so a build stopped half-way never leaves half a cache.
    const temporary = `${this.file}.${process.pid}.${threadId}.tmp`
    writeFileSync(temporary, serialize(this.data))
    renameSync(temporary, this.file)
    this.changed = false
  }
}

/** A key for any JSON-able input. */
export const hashInput = (value: unknown): string => sha256(JSON.stringify(value))

const filesBelow = (dir: string): string[] =>
  readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name))
    .sort()

/** The templates' identity: every file below templates/, the page writer and the lockfile. */
export const templatesKey = (): string =>
  sha256(
    String(FORMAT),
    ...[
      ...filesBelow(join(PACKAGE_ROOT, 'templates')),
      join(CLI_DIR, 'output.ts'),
      join(CLI_DIR, 'assets.ts'),
      join(PACKAGE_ROOT, 'package-lock.json'),
    ].map((file) => (existsSync(file) ? readFileSync(file) : '')),
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
