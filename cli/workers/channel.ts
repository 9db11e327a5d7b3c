// The one way the CLI talks to its worker threads: the parent sends a request and awaits its
// answer; the worker answers requests one after another, in the order sent. A failure in the
// worker rejects that request with the worker's message; a worker that dies rejects every
// request still waiting. Used by the render pool, the search job and the dev server's builder.
import { parentPort, type Worker } from 'node:worker_threads'

type Envelope<T> = { id: number; ok: true; value: T } | { id: number; ok: false; message: string }

interface Pending {
  resolve: (value: never) => void
  reject: (error: Error) => void
}

/** Parent side: requests to one worker, each answered in turn. */
export class WorkerChannel<Request, Response> {
  private readonly pending = new Map<number, Pending>()
  private nextId = 0
  private failure: Error | undefined
  /** The worker failed or ended: no request will be answered. */
  stopped = false

  /**
   * With `idleUnref`, the worker keeps the process alive only while a request is waiting (a
   * worker kept for later work must not hold a finished build open).
   */
  constructor(
    readonly worker: Worker,
    private readonly options: { idleUnref?: boolean } = {},
  ) {
    if (options.idleUnref) worker.unref()
    worker.on('message', (answer: Envelope<Response>) => {
      const waiting = this.pending.get(answer.id)
      if (!waiting) return
      this.settled(answer.id)
      if (answer.ok) waiting.resolve(answer.value as never)
      else waiting.reject(new Error(answer.message))
    })
    const fail = (error: Error) => {
      this.failure ??= error
      this.stopped = true
      for (const [id, waiting] of this.pending) {
        this.settled(id)
        waiting.reject(error)
      }
    }
    worker.on('error', fail)
    worker.on('exit', (code) => fail(new Error(`the worker stopped (exit code ${code})`)))
  }

  request<R extends Response = Response>(request: Request): Promise<R> {
    if (this.failure) return Promise.reject(this.failure)
    const id = this.nextId++
    if (this.pending.size === 0 && this.options.idleUnref) this.worker.ref()
    return new Promise<R>((resolve, reject) => {
      this.pending.set(id, { resolve, reject } as Pending)
      this.worker.postMessage({ id, request })
    })
  }

  private settled(id: number): void {
    this.pending.delete(id)
    if (this.pending.size === 0 && this.options.idleUnref) this.worker.unref()
  }

  terminate(): Promise<number> {
    return this.worker.terminate()
  }
}

/**
 * Worker side: answers each request with `handle`'s result, one request at a time. Work given
 * to `later` runs once the answer is sent and before the next request is handled (a snapshot to
 * write, code to warm up); its failures are ignored, as it only saves time.
 */
export const serveRequests = <Request, Response>(
  handle: (request: Request, later: (work: () => unknown) => void) => Response | Promise<Response>,
): void => {
  const port = parentPort
  if (!port) throw new Error('serveRequests runs in a worker thread')
  let queue: Promise<unknown> = Promise.resolve()
  port.on('message', ({ id, request }: { id: number; request: Request }) => {
    queue = queue.then(async () => {
      const deferred: (() => unknown)[] = []
      let answer: Envelope<Response>
      try {
        answer = { id, ok: true, value: await handle(request, (work) => deferred.push(work)) }
      } catch (error) {
        answer = { id, ok: false, message: error instanceof Error ? error.message : String(error) }
      }
      port.postMessage(answer)
      for (const work of deferred)
        await Promise.resolve()
          .then(work)
          .catch(() => undefined)
    })
  })
}
