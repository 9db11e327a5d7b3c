// The persistent build cache: each doc's Markdown rendering, keyed by a hash of its source (front
// matter and body), its route and the pipeline (the code of the Markdown steps, the locked
// dependency versions, the base URL), and kept only while the lookups it made (linked docs'
// routes, static files, images) still answer the same; plus the last search index and its
// input's hash. Stored as two V8-serialised files, the docs (`build-cache.bin`, written while
// the search index is still being made) and the other results with the record of the output
// (`build-results.bin`), except each doc's HTML and search sections, most of a doc's bytes: they
// are a file of their own (`rendered/<key>`), read only when its page is written or the search
// index must analyse it again, so a warm build neither decodes nor rewrites them.
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
import type { Dependency, RenderOutcome } from './doc-renderer.ts'
import type { Section } from './markdown/rehype-sections.ts'
import type { OutputRecord } from './output-writer.ts'

/** Bump when the cache's own layout changes. */
const FORMAT = 4
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
  /**
   * The outcome with its HTML and sections left out (they are in `rendered/<renderKey>`), and
   * its lookups too (they are `deps`).
   */
  outcome: RenderOutcome
  /** The lookups the rendering made, as indexes into the docs' shared `lookups`. */
  deps: Uint32Array
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
  /**
   * Every lookup some doc made, once: docs make the same ones (their links to the same pages),
   * and thousands of small arrays cost far more to read and collect than indexes.
   */
  lookups: Dependency[]
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
  private readonly renderedDir: string
  /** Set once the rendered folder is known to exist: a cold build stores thousands of docs. */
  private renderedDirMade = false
  /** The names in `renderedDir`, listed once rather than asked doc by doc. */
  private renderedNames: Set<string> | undefined
  /** A lookup's index in `lookups`, by its parts joined. */
  private lookupIds: Map<string, number> | undefined

  private constructor(dir: string, pipeline: string) {
    const stamp = { format: FORMAT, pipeline }
    this.docsFile = new CacheFile(join(dir, 'build-cache.bin'), pipeline, {
      ...stamp,
      docs: {},
      lookups: [],
      frontMatters: {},
    })
    this.resultsFile = new CacheFile(join(dir, 'build-results.bin'), pipeline, {
      ...stamp,
      entries: {},
    })
    this.renderedDir = join(dir, 'rendered')
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

  private renderedFile(renderKey: string): string {
    return join(this.renderedDir, renderKey)
  }

  /**
   * The cached rendering of `source`, if it still holds (`holds` checks its lookups). Its HTML
   * and sections are read from their file when first asked for.
   */
  lookup(
    source: DocSource,
    holds: (outcome: RenderOutcome) => boolean,
  ): CachedRendering | undefined {
    this.used.add(source.relPath)
    const cached = this.docs.docs[source.relPath]
    if (!cached || cached.key !== sourceKey(source)) return undefined
    const { lookups } = this.docs
    const outcome = { ...cached.outcome, deps: Array.from(cached.deps, (i) => lookups[i]) }
    if (!holds(outcome)) return undefined
    this.renderedNames ??= new Set(
      existsSync(this.renderedDir) ? readdirSync(this.renderedDir) : [],
    )
    if (!this.renderedNames.has(cached.renderKey)) return undefined
    const file = this.renderedFile(cached.renderKey)
    const { result } = outcome
    let stored: { html: string; sections: Section[] } | undefined
    const read = () => {
      stored ??= decodeRendered(readFileSync(file, 'utf8'))
      return stored
    }
    const rendered = Object.defineProperties(
      { ...result.rendered },
      {
        html: { enumerable: true, get: () => read().html },
        sections: { enumerable: true, get: () => read().sections },
      },
    )
    return {
      outcome: { ...outcome, result: { ...result, rendered } },
      renderKey: cached.renderKey,
    }
  }

  store(source: DocSource, outcome: RenderOutcome, renderKey: string): void {
    this.used.add(source.relPath)
    const { html, sections, ...rendered } = outcome.result.rendered
    const file = this.renderedFile(renderKey)
    if (!existsSync(file)) {
      if (!this.renderedDirMade) mkdirSync(this.renderedDir, { recursive: true })
      this.renderedDirMade = true
      writeAtomically(file, encodeRendered(html, sections))
    }
    this.renderedNames?.add(renderKey)
    this.docs.docs[source.relPath] = {
      key: sourceKey(source),
      outcome: {
        ...outcome,
        result: { ...outcome.result, rendered: { ...rendered, html: '', sections: [] } },
        deps: [],
      },
      deps: Uint32Array.from(outcome.deps, (dep) => this.lookupId(dep)),
      renderKey,
    }
    this.docsFile.changed = true
  }

  private lookupId(dep: Dependency): number {
    this.lookupIds ??= new Map(this.docs.lookups.map((known, i) => [known.join('\0'), i]))
    const id = dep.join('\0')
    let index = this.lookupIds.get(id)
    if (index === undefined) {
      index = this.docs.lookups.push(dep) - 1
      this.lookupIds.set(id, index)
    }
    return index
  }

  /** Keeps only the lookups of the docs kept. */
  private dropUnusedLookups(): void {
    const { lookups } = this.docs
    const kept: Dependency[] = []
    const moved = new Map<number, number>()
    for (const doc of Object.values(this.docs.docs))
      doc.deps = doc.deps.map((i) => {
        let index = moved.get(i)
        if (index === undefined) {
          index = kept.push(lookups[i]) - 1
          moved.set(i, index)
        }
        return index
      })
    this.docs.lookups = kept
    this.lookupIds = undefined
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
    this.dropUnusedLookups()
    this.docsFile.save()
    const kept = new Set(Object.values(this.docs.docs).map((doc) => doc.renderKey))
    if (existsSync(this.renderedDir))
      for (const name of readdirSync(this.renderedDir))
        if (!kept.has(name)) {
          rmSync(join(this.renderedDir, name), { force: true })
          this.renderedNames?.delete(name)
        }
  }

  /** Writes whatever changed. */
  save(): void {
    this.saveDocs()
    this.resultsFile.save()
  }
}

/** A doc's file: its sections' JSON (which holds no raw line break) on the first line, then its HTML. */
const encodeRendered = (html: string, sections: Section[]) => `${JSON.stringify(sections)}\n${html}`

const decodeRendered = (text: string) => {
  const end = text.indexOf('\n')
  return { sections: JSON.parse(text.slice(0, end)) as Section[], html: text.slice(end + 1) }
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
      join(CLI_DIR, 'search-postings.ts'),
      join(PACKAGE_ROOT, 'package-lock.json'),
    ].map((file) => (existsSync(file) ? readFileSync(file) : '')),
  )
