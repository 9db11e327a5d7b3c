// Worker side of the dev server's builder: keeps one SiteBuilder and its state between edits.
// It runs in a worker so a template edit can start a fresh one with fresh modules.
import { parentPort, workerData } from 'node:worker_threads'
import { SiteBuilder } from './build.ts'
import type { DevRequest, DevResponse } from './dev-builder.ts'

const builder = new SiteBuilder({
  ...(workerData as { root: string; outDir: string }),
  dev: true,
})

parentPort!.on('message', async (request: DevRequest) => {
  let response: DevResponse
  try {
    const result =
      request.type === 'build' ? await builder.buildAll() : await builder.updateDocs(request.files)
    response = { ok: true, result }
  } catch (error) {
    response = { ok: false, message: error instanceof Error ? error.message : String(error) }
  }
  parentPort!.postMessage(response)
  // After a build, meanwhile the author reads the page.
  if (request.type === 'build' && response.ok) await builder.warmUp().catch(() => undefined)
})
