// Main-thread side of the search worker (cli/search-indexer.ts): requests run one after
// another; the build awaits its index, the dev server lets updates run in the background.
import { join } from 'node:path'
import type { Worker } from 'node:worker_threads'
import { type BuildCache, hashInput, searchCodeKey } from './build-cache.ts'
import type { SearchablePage, SearchFiles, SearchManifest, SearchSettings } from './search-index.ts'
import { startTsWorker } from './ts-worker.ts'

/** Where the worker keeps its index between builds, and the key it is valid for. */
export interface SnapshotFile {
  path: string
  key: string
}

export type SearchRequest =
  | { type: 'init'; settings: SearchSettings; outBase: string; snapshot?: SnapshotFile }
  | { type: 'set'; pages: SearchablePage[] }
  | { type: 'update'; pages: SearchablePage[]; removed: string[] }
  /** Answers once the work the worker does after an answer (writing its snapshot) is done. */
  | { type: 'flush' }

export type SearchResponse =
  | { type: 'done'; files?: [string, string][]; manifest?: SearchManifest }
  | { type: 'failed'; message: string }

const startWorker = () => {
  const worker = startTsWorker(new URL('./search-indexer.ts', import.meta.url), {
    maxOldGenerationSizeMb: 256,
  })
  worker.unref()
  return worker
}

export class SearchJob {
  /** Unset once stopped; the next request starts a new one. */
  private worker: Worker | undefined
  private queue: Promise<unknown> = Promise.resolve()
  private pending = 0
  private stopping: Promise<void> | undefined

  /**
   * Starts the worker at once, so it loads while the build renders Markdown. An idle worker
   * does not keep the process alive.
   */
  constructor() {
    this.worker = startWorker()
  }

  private ask(request: SearchRequest): Promise<Extract<SearchResponse, { type: 'done' }>> {
    this.worker ??= startWorker()
    const worker = this.worker
    if (this.pending++ === 0) worker.ref()
    const next = this.queue.then(
      () =>
        new Promise<Extract<SearchResponse, { type: 'done' }>>((resolve, reject) => {
          const onError = (error: Error) => reject(error)
          worker.once('error', onError)
          worker.once('message', (response: SearchResponse) => {
            worker.off('error', onError)
            if (response.type === 'failed') reject(new Error(response.message))
            else resolve(response)
          })
          worker.postMessage(request)
        }),
    )
    this.queue = next
      .catch(() => undefined)
      .finally(() => {
        if (--this.pending === 0) worker.unref()
      })
    return next
  }

  /** Lets the worker finish what it does after its answers (the snapshot), then ends it. */
  private async stop(): Promise<void> {
    const { worker } = this
    if (!worker) return
    await this.ask({ type: 'flush' }).catch(() => undefined)
    this.worker = undefined
    await worker.terminate()
  }

  /** Sets the worker up; with `snapshot`, it starts from (and keeps) the last build's index. */
  init(settings: SearchSettings, outBase: string, snapshot?: SnapshotFile) {
    return this.ask({ type: 'init', settings, outBase, snapshot })
  }

  /**
   * Makes the index hold `pages` (updating the snapshot's) and writes its files into the output
   * folder; resolves with them and the manifest, which is left to write.
   */
  async set(pages: SearchablePage[]): Promise<SearchFiles> {
    const { files, manifest } = await this.ask({ type: 'set', pages })
    return { files: new Map(files), manifest: manifest!, written: true }
  }

  /** Replaces the given pages' entries and writes the files that changed (the dev server). */
  update(pages: SearchablePage[], removed: string[]) {
    return this.ask({ type: 'update', pages, removed })
  }

  /**
   * The build's index of `pages`: from the build cache when the pages are the same, else from
   * the worker, which starts from the last build's index kept in `cacheDir` (and the dev
   * server's worker keeps it for the updates that follow).
   */
  async index(
    settings: SearchSettings,
    pages: SearchablePage[],
    outBase: string,
    cache: BuildCache | undefined,
    cacheDir: string | false,
    /** The dev server: the worker must hold the index for the updates that follow. */
    keep = false,
  ): Promise<SearchFiles> {
    const key = hashInput([settings, pages])
    const cached = cache?.entry<SearchFiles>('search', key)
    if (cached && !keep) return cached
    const snapshot = cacheDir
      ? { path: join(cacheDir, 'search-index.bin'), key: hashInput([settings, searchCodeKey()]) }
      : undefined
    await this.init(settings, outBase, snapshot)
    const files = await this.set(pages)
    // A later build finds the files in the cache, not in its output folder.
    cache?.storeEntry('search', key, { files: files.files, manifest: files.manifest })
    // A build is done with the worker: its heap goes while the build writes what is left.
    if (!keep) this.stopping = this.stop()
    return files
  }

  /** Resolves once the requests sent so far are done. */
  idle(): Promise<void> {
    return this.queue.then(() => undefined)
  }

  async close(): Promise<void> {
    await this.stopping
    await this.stop()
  }
}
