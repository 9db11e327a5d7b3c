// The one place the Markdown processor is wired to the site: link and image resolvers over the
// site's routes and static files. The builder and the render workers both render through it.
// Every lookup a render makes is recorded, so the build cache can tell whether a cached
// rendering still holds (a linked page moved, an image changed; cli/render/doc-deps.ts).
import type { DocSource } from '../content/content.ts'
import { AssetCollector, resolveLink } from '../markdown/links.ts'
import { createProcessor } from '../markdown/pipeline.ts'
import { loadMarkdownPlugins } from '../markdown/site-plugins.ts'
import { type Dependency, imageHasher, type RendererInit, type RenderOutcome } from './doc-deps.ts'
import { renderDoc } from './render-doc.ts'

export const createDocRenderer = async (init: RendererInit) => {
  const routeOfFile = new Map(init.routes)
  const staticFiles = new Set(init.staticFiles)
  const imageHash = imageHasher()
  let deps: Dependency[] = []
  let copies: [string, string][] = []
  const recordingRoutes = {
    get: (file: string) => {
      const route = routeOfFile.get(file)
      deps.push(['route', file, route ?? ''])
      return route
    },
  } as Map<string, string>
  const ctx = { docsDir: init.docsDir, baseUrl: init.baseUrl, routeOfFile: recordingRoutes }
  const assets = new AssetCollector(
    init.baseUrl,
    (path) => {
      const found = staticFiles.has(path)
      deps.push(['static', path, found ? '1' : ''])
      return found
    },
    (file, out) => {
      deps.push(['image', file, imageHash(file)])
      if (out) copies.push([file, out])
    },
  )
  const processor = createProcessor({
    resolveLink: (href, from) => resolveLink(ctx, href, from),
    resolveImage: assets.resolveImage,
    ...(await loadMarkdownPlugins(init.plugins)),
  })
  return {
    render(source: DocSource): RenderOutcome {
      deps = []
      copies = []
      const result = renderDoc(processor, source)
      return { result, deps, copies }
    },
  }
}

export type DocRenderer = Awaited<ReturnType<typeof createDocRenderer>>
