// Main-thread side of the search worker (cli/search/search-indexer.ts): requests run one after
// another; the build awaits its index, the dev server lets updates run in the background.
import { join } from 'node:path'
import type { BuildCache } from '../cache/build-cache.ts'
import { searchCodeKey } from '../cache/code-keys.ts'
import { hashInput } from '../cache/hash.ts'
import { WorkerChannel } from '../workers/channel.ts'
import { startTsWorker } from '../workers/start-worker.ts'
import type {
  IndexedPage,
  SearchablePage,
  SearchFiles,
  SearchManifest,
  SearchSettings,
} from './search-index.ts'

/** Where the worker keeps its index between builds, and the key it is valid for. */
export interface SnapshotFile {
  path: string
  key: string
}

export type SearchRequest =
  | { type: 'init'; settings: SearchSettings; outBase: string; snapshot?: SnapshotFile }
  /** With `defer`, the pages are analysed and the files made on a `files` request. */
  | { type: 'set'; pages: IndexedPage[]; defer?: boolean }
  | { type: 'files' }
  | { type: 'update'; pages: SearchablePage[]; removed: string[] }
  /** Answers once the work the worker does after an answer (writing its snapshot) is done. */
  | { type: 'flush' }

export interface SearchResponse {
  /** The names of the files written. */
  files?: string[]
  manifest?: SearchManifest
  /** `set` sent these routes without sections, and the index needs them. */
  need?: string[]
}

/** Where the index goes and where its snapshot is kept. */
export interface IndexTarget {
  settings: SearchSettings
  /** The output folder below the base URL. */
  outBase: string
  /** The build cache's folder, where the worker keeps its snapshot; `false`: none. */
  cacheDir: string | false
}

export interface IndexOptions extends IndexTarget {
  cache: BuildCache | undefined
  /** The dev server: the worker must hold the index for the updates that follow. */
  keep?: boolean
  /**
   * What stands for each page (in `pages`' order), cheaper to hash than its text: with it, the
   * worker is sent a page's sections only when its index does not hold the page as it is, so a
   * cached doc's sections need not be read at all.
   */
  identity?: unknown[]
  /**
   * Whether the output already holds these index files (it records them as kept); with the
   * same input as the last build, the index is then neither made nor written.
   */
  inOutput?: (names: string[]) => boolean
  /**
   * The build cache's file holding a page's sections, if it has one: the worker reads them
   * there, so this thread neither reads nor copies them.
   */
  sectionsFile?: (route: string) => string | undefined
  /**
   * The pages are analysed at once, but the index's files are made only once this settles: a
   * build passes the end of its page writing, so that the search worker's largest moment does
   * not come while the render workers still hold their heaps (the peak of the build's memory).
   */
  filesAfter?: Promise<unknown>
}

export class SearchJob {
  /** Started on the first request (a build that takes its index from the cache never needs
   * one) and unset once stopped: the next request starts a new one. */
  private worker: WorkerChannel<SearchRequest, SearchResponse> | undefined
  /** The target of the last `init` sent: `index` goes on from it. */
  private prepared: string | undefined
  private stopping: Promise<void> | undefined
  /** Settles once the requests sent so far are answered. */
  private last: Promise<unknown> = Promise.resolve()

  private ask(request: SearchRequest): Promise<SearchResponse> {
    this.worker ??= new WorkerChannel(
      startTsWorker(new URL('./search-indexer.ts', import.meta.url), {
        maxOldGenerationSizeMb: 256,
      }),
      // An idle worker does not keep the process alive.
      { idleUnref: true },
    )
    const answer = this.worker.request(request)
    this.last = answer.catch(() => undefined)
    return answer
  }

  /** Lets the worker finish what it does after its answers (the snapshot), then ends it. */
  private async stop(): Promise<void> {
    const { worker } = this
    if (!worker) return
    await this.ask({ type: 'flush' }).catch(() => undefined)
    this.worker = undefined
    this.prepared = undefined
    await worker.terminate()
  }

  /** Sets the worker up; with `snapshot`, it starts from (and keeps) the last build's index. */
  init(settings: SearchSettings, outBase: string, snapshot?: SnapshotFile) {
    return this.ask({ type: 'init', settings, outBase, snapshot })
  }

  /**
   * Makes the index hold `pages` (updating the snapshot's) and writes its files into the output
   * folder; resolves with their names and the manifest, which is left to write. With `keys`
   * (one per page) and not `eager`, pages go by key, and those the worker asks for then whole.
   */
  async set(
    pages: SearchablePage[],
    keys?: string[],
    eager = true,
    sectionsFile?: (route: string) => string | undefined,
    filesAfter?: Promise<unknown>,
  ): Promise<SearchFiles> {
    const defer = filesAfter !== undefined
    const sectionsOf = (page: SearchablePage) => {
      const file = sectionsFile?.(page.route)
      return file === undefined ? { sections: page.sections } : { file }
    }
    const indexed: IndexedPage[] = keys
      ? pages.map((page, i) => ({
          route: page.route,
          title: page.title,
          breadcrumbs: page.breadcrumbs,
          key: keys[i],
          ...(eager ? sectionsOf(page) : {}),
        }))
      : pages
    let answer = await this.ask({ type: 'set', pages: indexed, defer })
    if (answer.need) {
      const need = new Set(answer.need)
      answer = await this.ask({
        type: 'set',
        pages: indexed.map((page, i) =>
          need.has(page.route) ? { ...page, ...sectionsOf(pages[i]) } : page,
        ),
        defer,
      })
    }
    if (defer) {
      await filesAfter
      answer = await this.ask({ type: 'files' })
    }
    const { files = [], manifest } = answer
    return { files: new Map(files.map((name) => [name, ''])), manifest: manifest!, written: true }
  }

  /** Replaces the given pages' entries and writes the files that changed (the dev server). */
  update(pages: SearchablePage[], removed: string[]) {
    return this.ask({ type: 'update', pages, removed })
  }

  /**
   * Starts the worker on the last build's index (loading it takes a while), for a build that
   * knows early that its index must be made again; `index` goes on from there.
   */
  prepare({ settings, outBase, cacheDir }: IndexTarget): void {
    const snapshot = cacheDir
      ? { path: join(cacheDir, 'search-index.bin'), key: hashInput([settings, searchCodeKey()]) }
      : undefined
    const target = hashInput([settings, outBase, snapshot])
    if (this.prepared === target) return
    this.prepared = target
    // A failure shows in the `set` that follows.
    this.init(settings, outBase, snapshot).catch(() => undefined)
  }

  /**
   * The build's index of `pages`: nothing to do when the input is the last build's and its
   * files are in the output, else from the worker, which starts from the last build's index
   * kept in `cacheDir` (and the dev server's worker keeps it for the updates that follow).
   * Resolves with the files to write.
   */
  async index(pages: SearchablePage[], options: IndexOptions): Promise<SearchFiles> {
    const { settings, cache, keep = false, identity, inOutput } = options
    const keys = identity?.map(hashInput)
    const key = hashInput([settings, keys ?? pages])
    // Without a last index to start from, every page is analysed: no use asking which.
    const eager = !cache?.hasEntry('search')
    const cached = cache?.entry<{ names: string[]; manifest: SearchManifest }>('search', key)
    if (cached && !keep && inOutput?.(cached.names))
      return { files: new Map(), manifest: cached.manifest }
    this.prepare(options)
    const files = await this.set(pages, keys, eager, options.sectionsFile, options.filesAfter)
    cache?.storeEntry('search', key, { names: [...files.files.keys()], manifest: files.manifest })
    // A build is done with the worker: its heap goes while the build writes what is left.
    if (!keep) this.stopping = this.stop()
    return files
  }

  /** Resolves once the requests sent so far are done. */
  idle(): Promise<void> {
    return this.last.then(() => undefined)
  }

  async close(): Promise<void> {
    await this.stopping
    await this.stop()
  }
}
