// Render worker of `docs build`: renders Markdown for a share of the docs, then renders and
// writes a share of the pages, so a big site uses every core.
import { parentPort } from 'node:worker_threads'
import { renderPage } from '../templates/render.tsx'
import { AssetCollector, resolveLink } from './links.ts'
import { createProcessor, type MarkdownProcessor } from './markdown.ts'
import { writePage } from './output.ts'
import { renderDoc } from './render-doc.ts'
import type { WorkerRequest, WorkerResponse } from './render-pool.ts'

let processor: MarkdownProcessor
let assets: AssetCollector

const handle = (request: WorkerRequest): WorkerResponse => {
  switch (request.type) {
    case 'init': {
      const { docsDir, baseUrl, routes, staticFiles } = request
      const ctx = { docsDir, baseUrl, routeOfFile: new Map(routes) }
      const staticSet = new Set(staticFiles)
      assets = new AssetCollector(baseUrl, (path) => staticSet.has(path))
      processor = createProcessor({
        resolveLink: (href, from) => resolveLink(ctx, href, from),
        resolveImage: assets.resolveImage,
      })
      return { type: 'ready' }
    }
    case 'markdown':
      return {
        type: 'markdown',
        results: request.docs.map((doc) => renderDoc(processor, doc)),
        copies: [...assets.copies],
      }
    case 'pages':
      for (const page of request.pages)
        writePage(request.outDir, page, renderPage(request.site, page))
      return { type: 'written' }
  }
}

parentPort!.on('message', (request: WorkerRequest) => {
  try {
    parentPort!.postMessage(handle(request))
  } catch (error) {
    parentPort!.postMessage({
      type: 'failed',
      message: error instanceof Error ? error.message : String(error),
    })
  }
})
