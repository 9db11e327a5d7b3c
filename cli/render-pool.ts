// A fixed pool of render workers for full builds of big sites: batches of docs for Markdown,
// then batches of pages for HTML, each to the next free worker.
import { availableParallelism } from 'node:os'
import type { Worker } from 'node:worker_threads'
import type { PageModel, SiteModel } from '../templates/model.ts'
import type { DocSource } from './content.ts'
import type { RendererInit, RenderOutcome } from './doc-renderer.ts'
import { startTsWorker } from './ts-worker.ts'

export type WorkerRequest =
  | ({ type: 'init' } & RendererInit)
  | { type: 'markdown'; docs: DocSource[] }
  | { type: 'site'; site: SiteModel; outDir: string }
  | { type: 'pages'; pages: PageModel[] }

export type WorkerResponse =
  | { type: 'ready' }
  | { type: 'markdown'; outcomes: RenderOutcome[] }
  | { type: 'written' }
  | { type: 'failed'; message: string }

/** Below this many docs, starting workers costs more than it saves. */
export const POOL_THRESHOLD = 150

export const defaultPoolSize = (): number => Math.max(1, Math.min(availableParallelism(), 8))

/**
 * Work goes out in batches of this many items, each to the next free worker: a worker holds one
 * batch at a time (memory stays flat as the site grows) and no worker idles while another has
 * a long share left.
 */
const BATCH = 50

export class RenderPool {
  private constructor(private readonly workers: Worker[]) {}

  static async start(size: number, init: RendererInit): Promise<RenderPool> {
    const pool = new RenderPool(
      Array.from({ length: size }, () =>
        // A worker holds one batch of docs or pages at a time.
        startTsWorker(new URL('./render-worker.ts', import.meta.url), {
          maxOldGenerationSizeMb: 64,
        }),
      ),
    )
    await pool.all(() => ({ type: 'init', ...init }))
    return pool
  }

  private ask(worker: Worker, request: WorkerRequest): Promise<WorkerResponse> {
    return new Promise((resolve, reject) => {
      const onError = (error: Error) => reject(error)
      worker.once('error', onError)
      worker.once('message', (response: WorkerResponse) => {
        worker.off('error', onError)
        if (response.type === 'failed') reject(new Error(response.message))
        else resolve(response)
      })
      worker.postMessage(request)
    })
  }

  private all(request: (index: number) => WorkerRequest): Promise<WorkerResponse[]> {
    return Promise.all(this.workers.map((worker, i) => this.ask(worker, request(i))))
  }

  /** Sends `items` in batches to whichever worker is free; answers keep the batches' order. */
  private async batches<T>(
    items: T[],
    request: (batch: T[]) => WorkerRequest,
  ): Promise<WorkerResponse[]> {
    const answers: WorkerResponse[] = []
    let next = 0
    await Promise.all(
      this.workers.map(async (worker) => {
        while (next < items.length) {
          const start = next
          next += BATCH
          answers[start / BATCH] = await this.ask(worker, request(items.slice(start, next)))
        }
      }),
    )
    return answers
  }

  /** Renders every doc's Markdown; outcomes keep the order of `docs`. */
  async renderMarkdown(docs: DocSource[]): Promise<RenderOutcome[]> {
    const answers = await this.batches(docs, (batch) => ({ type: 'markdown', docs: batch }))
    return answers.flatMap((answer) => (answer.type === 'markdown' ? answer.outcomes : []))
  }

  /** Renders and writes the pages; the site model goes to each worker once. */
  async writePages(site: SiteModel, pages: PageModel[], outDir: string): Promise<void> {
    await this.all(() => ({ type: 'site', site, outDir }))
    await this.batches(pages, (batch) => ({ type: 'pages', pages: batch }))
  }

  async close(): Promise<void> {
    await Promise.all(this.workers.map((worker) => worker.terminate()))
  }
}
