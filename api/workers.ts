// `api start --workers N`: a primary process prepares what must be done once (the embedded
// database, migrations, generated keys), then runs N worker processes that serve one port
// together (Node's cluster module hands each connection to one of them). A worker that dies is
// replaced, after a pause that grows while workers keep dying young. The workers share nothing
// but PostgreSQL, so N processes answer a client exactly as one does.
import cluster, { type Worker } from 'node:cluster'
import { bootApp, createLogger, shutdownApp } from './app.ts'
import type { ServerConfig } from './config.ts'
import { openDatabase } from './database.ts'
import { serveWorkersMetrics } from './metrics.ts'
import type { Plugin } from './plugin.ts'

/** A worker that dies sooner than this after starting counts as dying young. */
const YOUNG_MS = 5_000
const MAX_RESTART_DELAY_MS = 10_000

export const isWorkerProcess = () => cluster.isWorker

export interface WorkersOptions {
  config: ServerConfig
  plugins: readonly Plugin[]
  workers: number
}

/** Runs in the primary: prepares, forks the workers, keeps them running until a signal. */
export const runPrimary = async ({ config, plugins, workers }: WorkersOptions): Promise<void> => {
  const logger = createLogger(config)
  const database = await openDatabase(config, logger)
  try {
    // Migrations and key generation, once, before any worker can race another to them.
    const prepared = await bootApp({
      config: { ...config, databaseUrl: database.url },
      plugins,
      logger,
    })
    await shutdownApp(prepared)
  } catch (error) {
    await database.stop()
    throw error
  }
  let stopping = false
  let restartDelay = 0
  const started = new Map<Worker, number>()
  const fork = () => {
    // A replacement whose pause ran into a shutdown is not needed any more.
    if (stopping) return
    // The workers use the primary's database (never an embedded one of their own).
    const worker = cluster.fork({ DATABASE_URL: database.url })
    started.set(worker, Date.now())
  }
  cluster.on('exit', (worker, code, signal) => {
    const lived = Date.now() - (started.get(worker) ?? 0)
    started.delete(worker)
    if (stopping) {
      if (started.size === 0) void database.stop().then(() => process.exit(0))
      return
    }
    restartDelay =
      lived < YOUNG_MS ? Math.min(Math.max(restartDelay * 2, 250), MAX_RESTART_DELAY_MS) : 0
    logger.error(
      { pid: worker.process.pid, code, signal, restartInMs: restartDelay },
      'worker died; starting another',
    )
    setTimeout(fork, restartDelay)
  })
  serveWorkersMetrics()
  for (let n = 0; n < workers; n++) fork()
  console.log(
    `Keyward API: ${workers} workers on http://${config.host}:${config.port}/ (database: ${database.embedded ? 'embedded PostgreSQL' : 'DATABASE_URL'})`,
  )
  const stop = (signal: NodeJS.Signals) => {
    if (stopping) return
    stopping = true
    logger.info({ signal }, 'shutting down the workers')
    // Each worker finishes its in-flight requests, then exits.
    for (const worker of started.keys()) worker.process.kill('SIGTERM')
    if (started.size === 0) void database.stop().then(() => process.exit(0))
  }
  process.once('SIGINT', () => stop('SIGINT'))
  process.once('SIGTERM', () => stop('SIGTERM'))
  // A renewed TLS certificate is announced to the primary (systemctl reload): each worker
  // serves it from its next connection on.
  process.on('SIGHUP', () => {
    for (const worker of started.keys()) worker.process.kill('SIGHUP')
  })
}
