// Worker side of the dev server's builder: keeps one SiteBuilder and its state between edits.
// It runs in a worker so a template edit can start a fresh one with fresh modules.
import { workerData } from 'node:worker_threads'
import { SiteBuilder } from '../builder/site-builder.ts'
import { serveRequests } from '../workers/channel.ts'
import type { DevRequest } from './dev-builder.ts'

const builder = new SiteBuilder({
  ...(workerData as { root: string; outDir: string }),
  dev: true,
})

serveRequests(async (request: DevRequest, later) => {
  if (request.type === 'update') return builder.updateDocs(request.files)
  const result = await builder.buildAll()
  // After a build, meanwhile the author reads the page.
  later(() => builder.warmUp())
  return result
})
