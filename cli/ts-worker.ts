// Starts a worker thread running a TypeScript module (worker threads do not inherit the
// loader the main thread registered).
import { Worker } from 'node:worker_threads'

const REGISTER = new URL('../bin/register-ts.js', import.meta.url).href

export const startTsWorker = (module: URL, workerData?: unknown): Worker => {
  const code = `import(${JSON.stringify(REGISTER)}).then(() => import(${JSON.stringify(module.href)}))`
  // A larger young generation cuts scavenge time for the parser's many short-lived objects.
  return new Worker(code, {
    eval: true,
    workerData,
    resourceLimits: { maxYoungGenerationSizeMb: 64 },
  })
}
