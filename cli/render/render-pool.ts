// A fixed pool of render workers for full builds of big sites: batches of docs for Markdown,
// then batches of pages for HTML, each to the next free worker.
import { availableParallelism } from 'node:os'
import type { PageModel, SiteModel } from '../../model/site-model.ts'
import type { DocSource } from '../content/content.ts'
import { WorkerChannel } from '../workers/channel.ts'
import { startTsWorker } from '../workers/start-worker.ts'
import type { RendererInit, RenderOutcome } from './doc-deps.ts'

/**
 * A page to write; a doc page whose HTML is in the build cache comes without it (`html: ''`)
 * and with `file`, the path of the cache file the worker reads it from.
 */
export interface PageToWrite {
  page: PageModel
  file?: string
}

export type WorkerRequest =
  /** With `renderedDir` (the build cache's), each rendering's HTML and sections go there. */
  | ({ type: 'init'; renderedDir?: string } & RendererInit)
  | { type: 'markdown'; docs: DocSource[] }
  | { type: 'site'; site: SiteModel; outDir: string; templates?: string }
  | { type: 'pages'; pages: PageToWrite[] }

export type WorkerResponse =
  | { type: 'ready' }
  | { type: 'markdown'; outcomes: RenderOutcome[] }
  | { type: 'written' }

type RenderChannel = WorkerChannel<WorkerRequest, WorkerResponse>

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
  private constructor(private readonly workers: RenderChannel[]) {}

  /**
   * Starts the workers, which load their modules (the Markdown pipeline, the templates) at once;
   * `init` tells them the site. A cold build starts them before reading the docs, so that the
   * loading runs beside it.
   */
  static spawn(size: number): RenderPool {
    return new RenderPool(
      Array.from(
        { length: size },
        () =>
          // A worker holds one batch of docs or pages at a time.
          new WorkerChannel(
            startTsWorker(new URL('./render-worker.ts', import.meta.url), {
              maxOldGenerationSizeMb: 64,
            }),
          ),
      ),
    )
  }

  static async start(size: number, init: RendererInit): Promise<RenderPool> {
    const pool = RenderPool.spawn(size)
    await pool.init(init)
    return pool
  }

  /**
   * Tells the workers the site. With `renderedDir`, each worker writes the HTML and sections of
   * the docs it renders there (cli/cache/rendered-files.ts) and hands back the rest only.
   */
  async init(init: RendererInit, renderedDir?: string): Promise<void> {
    await this.all(() => ({ type: 'init', ...init, renderedDir }))
  }

  private all(request: (index: number) => WorkerRequest): Promise<WorkerResponse[]> {
    return Promise.all(this.workers.map((worker, i) => worker.request(request(i))))
  }

  /**
   * Sends `items` in batches to whichever worker is free; answers keep the batches' order.
   * `onAnswer` sees each answer (and the index of its first item) once its worker has its next
   * batch, so the caller's work on it runs while the workers go on.
   */
  private async batches<T>(
    items: T[],
    request: (batch: T[]) => WorkerRequest,
    onAnswer?: (start: number, answer: WorkerResponse) => void,
  ): Promise<WorkerResponse[]> {
    const answers: WorkerResponse[] = []
    let next = 0
    const send = (worker: RenderChannel) => {
      if (next >= items.length) return undefined
      const start = next
      next += BATCH
      return { start, answer: worker.request(request(items.slice(start, next))) }
    }
    await Promise.all(
      this.workers.map(async (worker) => {
        for (let sent = send(worker); sent; ) {
          const answer = await sent.answer
          answers[sent.start / BATCH] = answer
          const { start } = sent
          sent = send(worker)
          onAnswer?.(start, answer)
        }
      }),
    )
    return answers
  }

  /**
   * Renders every doc's Markdown; outcomes keep the order of `docs`. `onRendered` gets each
   * batch's outcomes as they come, with the index of the batch's first doc.
   */
  async renderMarkdown(
    docs: DocSource[],
    onRendered?: (start: number, outcomes: RenderOutcome[]) => void,
  ): Promise<RenderOutcome[]> {
    const outcomesOf = (answer: WorkerResponse) =>
      answer.type === 'markdown' ? answer.outcomes : []
    const answers = await this.batches(
      docs,
      (batch) => ({ type: 'markdown', docs: batch }),
      onRendered && ((start, answer) => onRendered(start, outcomesOf(answer))),
    )
    return answers.flatMap(outcomesOf)
  }

  /**
   * Renders and writes the pages; the site model goes to each worker once. `templates` is the
   * URL of the templates bundled with the site's overrides, if any.
   */
  async writePages(
    site: SiteModel,
    pages: PageToWrite[],
    outDir: string,
    templates?: string,
  ): Promise<void> {
    await this.all(() => ({ type: 'site', site, outDir, templates }))
    await this.batches(pages, (batch) => ({ type: 'pages', pages: batch }))
  }

  async close(): Promise<void> {
    await Promise.all(this.workers.map((worker) => worker.terminate()))
  }
}
