// Search worker of the build and the dev server: keeps the site's search index in its own
// thread, so indexing runs beside page rendering and never holds up a dev-server rebuild.
import { parentPort } from 'node:worker_threads'
import { SearchIndex, writeSearchFiles } from './search-index.ts'
import type { SearchRequest, SearchResponse } from './search-job.ts'

let index: SearchIndex | undefined
let outBase = ''
/** The files of the index last written or handed out, kept one update longer for readers. */
const previous = new Set<string>()

const handle = (request: SearchRequest): SearchResponse => {
  if (request.type === 'init') {
    index = new SearchIndex(request.settings)
    outBase = request.outBase
    return { type: 'done' }
  }
  if (request.type === 'set') index!.setPages(request.pages)
  else index!.updatePages(request.pages, request.removed)
  const files = index!.files()
  writeSearchFiles(outBase, files)
  return {
    type: 'done',
    files: request.type === 'set' ? [...files.files] : undefined,
    manifest: files.manifest,
  }
}

parentPort!.on('message', (request: SearchRequest) => {
  try {
    parentPort!.postMessage(handle(request))
  } catch (error) {
    parentPort!.postMessage({
      type: 'failed',
      message: error instanceof Error ? (error.stack ?? error.message) : String(error),
    } satisfies SearchResponse)
  }
})
