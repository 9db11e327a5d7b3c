// The server's Prometheus metrics (prom-client), one registry per app: requests and their
// latency per route, throttle refusals (429 answers) per route, the database pool's use, the
// mail queue's depth, and Node's own process figures. The metrics plugin serves them to the
// addresses the configuration allows. With `--workers`, a worker asked for them asks the
// primary, which gathers every worker's figures and answers their sum (prom-client's
// aggregation), so a scrape sees the whole server whichever worker takes the connection.
import cluster, { type Worker } from 'node:cluster'
import type { MikroORM } from '@mikro-orm/postgresql'
import {
  AggregatorRegistry,
  Counter,
  collectDefaultMetrics,
  Gauge,
  Histogram,
  type MetricObjectWithValues,
  type MetricValue,
  Registry,
} from 'prom-client'
import { addressMatcher } from './http/forwarded.ts'
import { pendingMailCount } from './mail-queue.ts'
import { backgroundWork } from './request-scope.ts'

export interface Metrics {
  registry: Registry
  /** The text to serve: this process's figures, or with `--workers` every worker's summed. */
  render(): Promise<string>
  /** Records one answered request; `route` is the route's pattern, or `unmatched`. */
  observeRequest(method: string, route: string, status: number, seconds: number): void
}

interface TarnPool {
  numUsed(): number
  numFree(): number
  numPendingAcquires(): number
}

export const createMetrics = (orm: MikroORM): Metrics => {
  const registry = new Registry()
  collectDefaultMetrics({ register: registry })
  const requests = new Counter({
    name: 'keyward_http_requests_total',
    help: 'Requests answered, by method, route pattern and status.',
    labelNames: ['method', 'route', 'status'],
    registers: [registry],
  })
  const duration = new Histogram({
    name: 'keyward_http_request_duration_seconds',
    help: 'Time from the request to its answer, by method and route pattern.',
    labelNames: ['method', 'route'],
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  })
  const refusals = new Counter({
    name: 'keyward_throttle_refusals_total',
    help: 'Requests refused for too many attempts (429), by route pattern.',
    labelNames: ['route'],
    registers: [registry],
  })
  const pool = () => (orm.em.getKnex().client as { pool?: TarnPool }).pool
  new Gauge({
    name: 'keyward_db_pool_connections',
    help: "Database connections of this process's pool, by state (used, free, pending acquires).",
    labelNames: ['state'],
    registers: [registry],
    collect() {
      const current = pool()
      this.set({ state: 'used' }, current?.numUsed() ?? 0)
      this.set({ state: 'free' }, current?.numFree() ?? 0)
      this.set({ state: 'pending' }, current?.numPendingAcquires() ?? 0)
    },
  })
  new Gauge({
    name: 'keyward_mail_queue_depth',
    help: 'Mails waiting to be sent (not given up on), for the whole database.',
    registers: [registry],
    // Every worker counts the same table: summing them would multiply the depth.
    aggregator: 'max',
    async collect() {
      this.set(await backgroundWork.run('metrics', () => pendingMailCount(orm.em.fork())))
    },
  })
  if (cluster.isWorker) serveWorkerSide(registry)
  return {
    registry,
    render: () => (cluster.isWorker ? askPrimary() : registry.metrics()),
    observeRequest: (method, route, status, seconds) => {
      requests.inc({ method, route, status: String(status) })
      duration.observe({ method, route }, seconds)
      if (status === 429) refusals.inc({ route })
    },
  }
}

const ASK = 'keyward:metrics'
const ANSWER = 'keyward:metrics-answer'
const COLLECT = 'keyward:metrics-collect'
const COLLECTED = 'keyward:metrics-collected'
/**
 * How long the primary waits for every worker's figures. prom-client's own cluster aggregation
 * gives up after five seconds, which a busy machine exceeds; this one names the worker it lacked.
 */
const COLLECT_TIMEOUT_MS = 20_000
/** How long a worker waits for the primary's sum: longer, so the primary's error is the one seen. */
const ASK_TIMEOUT_MS = COLLECT_TIMEOUT_MS + 5_000

interface Answer {
  type: typeof ANSWER
  id: number
  text?: string
  error?: string
}

interface Collected {
  type: typeof COLLECTED
  id: number
  metrics?: MetricObjectWithValues<MetricValue<string>>[]
  error?: string
}

/** The worker's questions to the primary still waiting, by number (one IPC channel for all). */
const asked = new Map<number, (answer: Answer) => void>()
let asks = 0

const askPrimary = () =>
  new Promise<string>((resolve, reject) => {
    const id = asks++
    const timer = setTimeout(() => {
      asked.delete(id)
      reject(new Error("the primary process did not send the workers' metrics"))
    }, ASK_TIMEOUT_MS)
    asked.set(id, (answer) => {
      clearTimeout(timer)
      asked.delete(id)
      if (answer.text !== undefined) resolve(answer.text)
      else reject(new Error(`the workers' metrics: ${answer.error}`))
    })
    process.send?.({ type: ASK, id })
  })

/** In a worker: answers the primary's requests for this process's figures, and its sums. */
const serveWorkerSide = (registry: Registry) => {
  process.on('message', (message: Answer | { type?: string; id: number }) => {
    if (message?.type === ANSWER) asked.get(message.id)?.(message as Answer)
    if (message?.type !== COLLECT) return
    registry.getMetricsAsJSON().then(
      (metrics) => process.send?.({ type: COLLECTED, id: message.id, metrics }),
      (error: Error) => process.send?.({ type: COLLECTED, id: message.id, error: error.message }),
    )
  })
}

/** In the primary of `--workers`: answers a worker's scrape with every worker's figures summed. */
export const serveWorkersMetrics = () => {
  // Only workers that listen have figures, and only they answer: one still starting has not yet
  // set up its side, and a question sent to it would never be answered.
  const listening = new Set<number>()
  cluster.on('listening', (worker) => listening.add(worker.id))
  const collecting = new Map<number, (worker: Worker, answer: Collected) => void>()
  // A worker that dies takes its figures with it: a collection waiting for it goes on without.
  cluster.on('exit', (worker) => {
    listening.delete(worker.id)
    for (const settle of collecting.values()) settle(worker, { type: COLLECTED, id: -1 })
  })
  let collections = 0
  const collect = () =>
    new Promise<string>((resolve, reject) => {
      const id = collections++
      const workers = Object.values(cluster.workers ?? {}).filter(
        (worker): worker is Worker => worker?.isConnected() === true && listening.has(worker.id),
      )
      const waiting = new Set(workers.map((worker) => worker.id))
      const figures: MetricObjectWithValues<MetricValue<string>>[][] = []
      const finish = (error?: Error) => {
        clearTimeout(timer)
        collecting.delete(id)
        if (error) reject(error)
        else resolve(AggregatorRegistry.aggregate(figures).metrics())
      }
      const timer = setTimeout(
        () => finish(new Error(`workers ${[...waiting].join(', ')} sent no figures in time`)),
        COLLECT_TIMEOUT_MS,
      )
      collecting.set(id, (worker, answer) => {
        if (!waiting.delete(worker.id)) return
        if (answer.error) return finish(new Error(`worker ${worker.id}: ${answer.error}`))
        if (answer.metrics) figures.push(answer.metrics)
        if (waiting.size === 0) finish()
      })
      for (const worker of workers) worker.send({ type: COLLECT, id })
      if (waiting.size === 0) finish()
    })
  cluster.on('message', (worker, message: { type?: string; id: number }) => {
    if (message?.type === COLLECTED) collecting.get(message.id)?.(worker, message as Collected)
    if (message?.type !== ASK) return
    collect().then(
      (text) => worker.send({ type: ANSWER, id: message.id, text }),
      (error: Error) => worker.send({ type: ANSWER, id: message.id, error: error.message }),
    )
  })
}

/** Whether `address` is in the allow-list: addresses and CIDR ranges, IPv4 or IPv6. */
export const addressAllowed = (allowed: readonly string[], address: string): boolean =>
  addressMatcher(allowed)(address)
