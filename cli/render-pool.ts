// A fixed pool of render workers for full builds of big sites: each gets an equal share of
// the docs for Markdown, then of the pages for HTML.
import { availableParallelism } from 'node:os'
import type { Worker } from 'node:worker_threads'
import type { PageModel, SiteModel } from '../templates/model.ts'
import type { DocSource } from './content.ts'
import type { RendererInit, RenderOutcome } from './doc-renderer.ts'
import { startTsWorker } from './ts-worker.ts'

export type WorkerRequest =
  | ({ type: 'init' } & RendererInit)
  | { type: 'markdown'; docs: DocSource[] }
  | { type: 'pages'; site: SiteModel; pages: PageModel[]; outDir: string }

export type WorkerResponse =
  | { type: 'ready' }
  | { type: 'markdown'; outcomes: RenderOutcome[] }
  | { type: 'written' }
  | { type: 'failed'; message: string }

/** Below this many docs, starting workers costs more than it saves. */
export const POOL_THRESHOLD = 150

export const defaultPoolSize = (): number => Math.max(1, Math.min(availableParallelism(), 8))

const chunk = <T>(items: T[], parts: number): T[][] => {
  const size = Math.ceil(items.length / parts)
  return Array.from({ length: parts }, (_, i) => items.slice(i * size, (i + 1) * size))
}

export class RenderPool {
  private constructor(private readonly workers: Worker[]) {}

  static async start(size: number, init: RendererInit): Promise<RenderPool> {
    const pool = new RenderPool(
      Array.from({ length: size }, () =>
        startTsWorker(new URL('./render-worker.ts', import.meta.url)),
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

  /** Renders every doc's Markdown; outcomes keep the order of `docs`. */
  async renderMarkdown(docs: DocSource[]): Promise<RenderOutcome[]> {
    const shares = chunk(docs, this.workers.length)
    const responses = await this.all((i) => ({ type: 'markdown', docs: shares[i] }))
    return responses.flatMap((response) => (response.type === 'markdown' ? response.outcomes : []))
  }

  async writePages(site: SiteModel, pages: PageModel[], outDir: string): Promise<void> {
    const shares = chunk(pages, this.workers.length)
    await this.all((i) => ({ type: 'pages', site, pages: shares[i], outDir }))
  }

  async close(): Promise<void> {
    await Promise.all(this.workers.map((worker) => worker.terminate()))
  }
}
