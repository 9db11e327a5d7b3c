// The server's Prometheus metrics (prom-client), one registry per app: requests and their
// latency per route, throttle refusals (429 answers) per route, the database pool's use, the
// mail queue's depth, and Node's own process figures. The metrics plugin serves them to the
// addresses the configuration allows. With `--workers`, a worker asked for them asks the
// primary, which gathers every worker's figures (prom-client's cluster aggregation) and answers
// their sum, so a scrape sees the whole server whichever worker takes the connection.
import cluster from 'node:cluster'
import type { MikroORM } from '@mikro-orm/postgresql'
import {
  AggregatorRegistry,
  Counter,
  collectDefaultMetrics,
  Gauge,
  Histogram,
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
  if (cluster.isWorker) {
    // Answers the primary's requests for this worker's figures.
    AggregatorRegistry.setRegistries(registry)
    new AggregatorRegistry()
  }
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
/**
 * How long a worker waits for the primary's sum before the scrape fails: longer than the
 * primary's own wait for the workers (five seconds, prom-client's), so that its error is the
 * one reported.
 */
const ASK_TIMEOUT_MS = 10_000

interface Answer {
  type: typeof ANSWER
  id: number
  text?: string
  error?: string
}

/** The worker's questions to the primary still waiting, by number (one IPC channel for all). */
const asked = new Map<number, (answer: Answer) => void>()
let asks = 0

const askPrimary = () =>
  new Promise<string>((resolve, reject) => {
    if (asks === 0)
      process.on('message', (message: Answer) => {
        if (message?.type === ANSWER) asked.get(message.id)?.(message)
      })
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

/** In the primary of `--workers`: answers a worker's scrape with every worker's figures summed. */
export const serveWorkersMetrics = () => {
  const aggregator = new AggregatorRegistry()
  cluster.on('message', (worker, message: { type?: string; id?: number }) => {
    if (message?.type !== ASK) return
    aggregator.clusterMetrics().then(
      (text) => worker.send({ type: ANSWER, id: message.id, text }),
      (error: Error) => worker.send({ type: ANSWER, id: message.id, error: error.message }),
    )
  })
}

/** Whether `address` is in the allow-list: addresses and CIDR ranges, IPv4 or IPv6. */
export const addressAllowed = (allowed: readonly string[], address: string): boolean =>
  addressMatcher(allowed)(address)
