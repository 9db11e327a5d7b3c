// Renders Markdown with the real pipeline and resolvers that map `x.md` to `/docs/x/`.

import type { LinkResolution } from '../../cli/markdown/data.ts'
import { createProcessor, renderMarkdown } from '../../cli/markdown/pipeline.ts'

const resolveLink = (href: string): LinkResolution => {
  if (/^[a-z]+:/i.test(href)) return { url: href }
  if (href.includes('missing.md')) return { error: `broken Markdown link "${href}": no such doc` }
  const url = href.replace(/^\.\//, '/docs/').replace(/\.md(#|$)/, '/$1')
  return { url, check: url }
}

export const processor = createProcessor({ resolveLink, resolveImage: (src) => ({ url: src }) })

export const render = (markdown: string, path = '/site/content/docs/page.md') =>
  renderMarkdown(processor, path, markdown)
