// Starts a worker thread running a module of this repository. Under `bin/docs.js` the build
// workers run their bundled entries (plain JavaScript, see bin/docs.js); otherwise, and for
// workers that must load fresh sources, the TypeScript module itself through tsx (worker
// threads do not inherit the loader the main thread registered).
import { existsSync } from 'node:fs'
import { basename, join } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { Worker } from 'node:worker_threads'

const REGISTER = new URL('../../bin/register-ts.js', import.meta.url).href

export interface WorkerOptions {
  workerData?: unknown
  /** Load the TypeScript sources even when a bundle is there (the dev server's builder). */
  fresh?: boolean
  /**
   * Heap size for long-lived data, in MB. V8 lets garbage pile up to a heap size it picks from
   * the machine's memory; a worker that holds little at a time is told so, which keeps the
   * build's resident memory flat as the site grows.
   */
  maxOldGenerationSizeMb?: number
}

export const startTsWorker = (module: URL, options: WorkerOptions = {}): Worker => {
  const { workerData, fresh = false, maxOldGenerationSizeMb } = options
  const bundle = process.env.KEYWARD_DOCS_BUNDLE
  const bundled = bundle && join(bundle, `${basename(fileURLToPath(module), '.ts')}.js`)
  const code =
    bundled && !fresh && existsSync(bundled)
      ? `import(${JSON.stringify(pathToFileURL(bundled).href)})`
      : `import(${JSON.stringify(REGISTER)}).then(() => import(${JSON.stringify(module.href)}))`
  // A larger young generation cuts scavenge time for the parser's many short-lived objects.
  return new Worker(code, {
    eval: true,
    workerData,
    resourceLimits: { maxYoungGenerationSizeMb: 32, maxOldGenerationSizeMb },
  })
}
