// Main-thread side of the dev server's builder: one request at a time to a builder worker,
// which is replaced when templates change.
import type { Worker } from 'node:worker_threads'
import type { BuildResult } from './build.ts'
import { startTsWorker } from './ts-worker.ts'

export type DevRequest = { type: 'build' } | { type: 'update'; files: string[] }
export type DevResponse = { ok: true; result: BuildResult } | { ok: false; message: string }

export class DevBuilder {
  private worker: Worker | undefined
  private queue: Promise<unknown> = Promise.resolve()

  constructor(private readonly options: { root: string; outDir: string }) {}

  /** Queues a request; requests run one after another. */
  run(request: DevRequest, restart = false): Promise<DevResponse> {
    const next = this.queue.then(() => this.send(request, restart))
    this.queue = next.catch(() => undefined)
    return next
  }

  private async send(request: DevRequest, restart: boolean): Promise<DevResponse> {
    if (restart && this.worker) {
      await this.worker.terminate()
      this.worker = undefined
    }
    this.worker ??= startTsWorker(new URL('./dev-builder-worker.ts', import.meta.url), {
      workerData: this.options,
      fresh: true,
    })
    const worker = this.worker
    return new Promise<DevResponse>((resolve) => {
      const onMessage = (response: DevResponse) => {
        worker.off('error', onError)
        resolve(response)
      }
      const onError = (error: Error) => {
        worker.off('message', onMessage)
        this.worker = undefined
        resolve({ ok: false, message: error.message })
      }
      worker.once('message', onMessage)
      worker.once('error', onError)
      worker.postMessage(request)
    })
  }

  async close(): Promise<void> {
    await this.worker?.terminate()
    this.worker = undefined
  }
}
