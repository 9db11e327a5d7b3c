// Main-thread side of the dev server's builder: one request at a time to a builder worker,
// which is replaced when templates change.
import type { BuildResult } from '../builder/options.ts'
import { WorkerChannel } from '../workers/channel.ts'
import { startTsWorker } from '../workers/start-worker.ts'

export type DevRequest = { type: 'build' } | { type: 'update'; files: string[] }
export type DevResponse = { ok: true; result: BuildResult } | { ok: false; message: string }

export class DevBuilder {
  private channel: WorkerChannel<DevRequest, BuildResult> | undefined
  private queue: Promise<unknown> = Promise.resolve()

  constructor(private readonly options: { root: string; outDir: string }) {}

  /** Queues a request; requests run one after another. */
  run(request: DevRequest, restart = false): Promise<DevResponse> {
    const next = this.queue.then(() => this.send(request, restart))
    this.queue = next.catch(() => undefined)
    return next
  }

  private async send(request: DevRequest, restart: boolean): Promise<DevResponse> {
    if (restart) await this.close()
    this.channel ??= new WorkerChannel(
      startTsWorker(new URL('./dev-builder-worker.ts', import.meta.url), {
        workerData: this.options,
        fresh: true,
      }),
    )
    const { channel } = this
    try {
      return { ok: true, result: await channel.request(request) }
    } catch (error) {
      // A worker that died is replaced on the next request.
      if (channel.stopped) this.channel = undefined
      return { ok: false, message: error instanceof Error ? error.message : String(error) }
    }
  }

  async close(): Promise<void> {
    await this.channel?.terminate()
    this.channel = undefined
  }
}
