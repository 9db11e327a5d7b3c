// The persistent build cache: each doc's Markdown rendering, keyed by a hash of its source (front
// matter and body), its route and the pipeline (./code-keys.ts), and kept only while the lookups
// it made (linked docs' routes, static files, images) still answer the same; plus other results
// by name (the client bundle, the search index) and the record of the output. Stored as two
// files (./cache-file.ts): the docs (`build-cache.bin`, written while the search index is still
// being made) and the other results with the record of the output (`build-results.bin`); each
// doc's HTML and sections are a file of their own (./rendered-files.ts).
import { join } from 'node:path'
import type { DocSource, ParsedFrontMatter } from '../content/content.ts'
import type { OutputRecord } from '../output/output-writer.ts'
import type { RenderOutcome } from '../render/doc-deps.ts'
import { CacheFile, type Stamped } from './cache-file.ts'
import { hashInput, sha256 } from './hash.ts'
import { LookupTable } from './lookup-table.ts'
import { RenderedFiles } from './rendered-files.ts'

/**
 * Where a doc is kept: its path below content/docs/, or for a translation or an archived
 * version (whose paths repeat the current docs') its path below the project root.
 */
const cacheId = (source: DocSource) =>
  source.variant === undefined ? source.relPath : source.displayPath

/** The doc's text stands for its front matter and body (`textKey`); the rest comes from where it is. */
const sourceKey = (source: DocSource) =>
  sha256(source.relPath, source.route, source.id, source.textKey)

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

interface DocsData extends Stamped {
  docs: Record<string, CachedDoc>
  /** Every lookup some doc made, once (./lookup-table.ts). */
  lookups: RenderOutcome['deps']
  /** Parsed front matter by a hash of the file's path and text. */
  frontMatters: Record<string, ParsedFrontMatter>
}

interface ResultsData extends Stamped {
  /** Other results by name (the client bundle, the search index), each with its input's key. */
  entries: Record<string, { key: string; value: unknown }>
  /** What the last build wrote, and where. */
  output?: OutputRecord
}

export class BuildCache {
  private readonly docsFile: CacheFile<DocsData>
  private readonly resultsFile: CacheFile<ResultsData>
  private readonly used = new Set<string>()
  private readonly usedFrontMatters = new Set<string>()
  private readonly rendered: RenderedFiles
  private readonly table: LookupTable

  private constructor(dir: string, pipeline: string) {
    this.docsFile = new CacheFile(join(dir, 'build-cache.bin'), pipeline, (stamp) => ({
      ...stamp,
      docs: {},
      lookups: [],
      frontMatters: {},
    }))
    this.resultsFile = new CacheFile(join(dir, 'build-results.bin'), pipeline, (stamp) => ({
      ...stamp,
      entries: {},
    }))
    this.rendered = new RenderedFiles(join(dir, 'rendered'))
    this.table = new LookupTable(this.docs.lookups)
  }

  private get docs(): DocsData {
    return this.docsFile.data
  }

  private get results(): ResultsData {
    return this.resultsFile.data
  }

  /** Opens the cache in `dir` for this pipeline; a stale cache starts empty. */
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

  /**
   * The cached rendering of `source`, if it still holds (`holds` checks its lookups). Its HTML
   * and sections are read from their file when first asked for.
   */
  lookup(
    source: DocSource,
    holds: (outcome: RenderOutcome) => boolean,
  ): CachedRendering | undefined {
    this.used.add(cacheId(source))
    const cached = this.docs.docs[cacheId(source)]
    if (!cached || cached.key !== sourceKey(source)) return undefined
    const outcome = { ...cached.outcome, deps: this.table.depsOf(cached.deps) }
    if (!holds(outcome) || !this.rendered.has(cached.renderKey)) return undefined
    return { outcome: this.reading(outcome, cached.renderKey), renderKey: cached.renderKey }
  }

  /** `outcome` with its HTML and sections read from their file when first asked for. */
  private reading(outcome: RenderOutcome, renderKey: string): RenderOutcome {
    const read = this.rendered.reader(renderKey)
    const { result } = outcome
    const rendered = Object.defineProperties(
      { ...result.rendered },
      {
        html: { enumerable: true, get: () => read().html },
        sections: { enumerable: true, get: () => read().sections },
      },
    )
    return { ...outcome, result: { ...result, rendered } }
  }

  /** Where render workers write the HTML and sections of the docs they render. */
  get renderedDir(): string {
    return this.rendered.dir
  }

  /** The file holding the HTML and sections of the rendering `renderKey`, if kept. */
  renderedFile(renderKey: string): string | undefined {
    return this.rendered.has(renderKey) ? this.rendered.path(renderKey) : undefined
  }

  /**
   * Keeps `outcome` for the next build; returns it as this build should hold it: a rendering a
   * render worker wrote to its file (`stored`) is read from there when asked for.
   */
  store(source: DocSource, outcome: RenderOutcome, renderKey: string): RenderOutcome {
    this.used.add(cacheId(source))
    const { stored, ...kept } = outcome
    const { html, sections, ...rendered } = outcome.result.rendered
    if (stored) this.rendered.written(renderKey)
    else this.rendered.write(renderKey, { html, sections })
    this.docs.docs[cacheId(source)] = {
      key: sourceKey(source),
      outcome: {
        ...kept,
        result: { ...outcome.result, rendered: { ...rendered, html: '', sections: [] } },
        deps: [],
      },
      deps: this.table.idsOf(outcome.deps),
      renderKey,
    }
    this.docsFile.changed = true
    return stored ? this.reading(kept, renderKey) : outcome
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
    const docs = Object.values(this.docs.docs)
    this.table.compact(docs)
    this.docs.lookups = this.table.lookups
    this.docsFile.save()
    this.rendered.prune(new Set(docs.map((doc) => doc.renderKey)))
  }

  /** Writes whatever changed. */
  save(): void {
    this.saveDocs()
    this.resultsFile.save()
  }
}
