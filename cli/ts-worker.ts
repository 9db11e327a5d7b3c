// Starts a worker thread running a TypeScript module through tsx (worker threads do not
// inherit the loader the main thread registered).
import { Worker } from 'node:worker_threads'

export const startTsWorker = (module: URL, workerData?: unknown): Worker => {
  const api = import.meta.resolve('tsx/esm/api')
  const code = `import(${JSON.stringify(api)}).then((m) => { m.register(); return import(${JSON.stringify(module.href)}) })`
  // A larger young generation cuts scavenge time for the parser's many short-lived objects.
  return new Worker(code, {
    eval: true,
    workerData,
    resourceLimits: { maxYoungGenerationSizeMb: 64 },
  })
}
