// Steps for links and images: relative `.md` links become routes, relative images hashed
// assets; every internal link is recorded with its line for the build's link check.
import type { Definition, Image, Link } from 'mdast'
import type { VFile } from 'vfile'
import type { ReferenceResolver, StepContext } from './data.ts'
import { reportError, reportWarning } from './messages.ts'

/** Resolves one reference and records it; returns the URL to write, or undefined on error. */
export const resolveReference = (
  file: VFile,
  node: { position?: { start: { line: number } } },
  href: string,
  resolve: ReferenceResolver,
): string | undefined => {
  const resolution = resolve(href, file.path)
  if ('error' in resolution) {
    reportError(file, node as never, resolution.error)
    return undefined
  }
  if (resolution.check) {
    file.data.links ??= []
    file.data.links.push({ url: resolution.check, line: node.position?.start.line })
  }
  return resolution.url
}

export const link = (node: Link | Definition, ctx: StepContext): void => {
  const url = resolveReference(ctx.file, node, node.url, ctx.resolveLink)
  if (url !== undefined) node.url = url
}

export const image = (node: Image, ctx: StepContext): void => {
  const resolution = ctx.resolveImage(node.url, ctx.file.path)
  if ('error' in resolution) {
    reportError(ctx.file, node, resolution.error)
    return
  }
  node.url = resolution.url
  if (!node.alt?.trim())
    reportWarning(
      ctx.file,
      node,
      `image "${node.url}" has no alt text: describe it for readers who cannot see it`,
    )
  const { width, height } = resolution
  node.data = {
    ...(node.data ?? {}),
    hProperties: { loading: 'lazy', decoding: 'async', ...(width && height && { width, height }) },
  }
}
