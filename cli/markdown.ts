// Builds the Markdown pipeline once: remark-parse, GFM, directives and Keyward's own steps,
// then remark-rehype and the rehype steps. `renderMarkdown` turns one file into HTML plus data.
import type { Root as HastRoot } from 'hast'
import { toHtml } from 'hast-util-to-html'
import remarkDirective from 'remark-directive'
import remarkGfm from 'remark-gfm'
import remarkParse from 'remark-parse'
import remarkRehype from 'remark-rehype'
import { unified } from 'unified'
import { VFile } from 'vfile'
import type { ReferenceResolver } from './markdown/data.ts'
import { normalizeDirectiveTitles } from './markdown/directive-titles.ts'
import rehypeCode from './markdown/rehype-code.ts'
import rehypeHeadings from './markdown/rehype-headings.ts'
import remarkAdmonitions from './markdown/remark-admonitions.ts'
import remarkImages from './markdown/remark-images.ts'
import remarkLinks from './markdown/remark-links.ts'
import remarkProviderCard from './markdown/remark-provider-card.ts'
import remarkQuote from './markdown/remark-quote.ts'
import remarkTabs from './markdown/remark-tabs.ts'
import remarkUnknownDirectives from './markdown/remark-unknown-directives.ts'
import remarkVideo from './markdown/remark-video.ts'

export interface ProcessorOptions {
  resolveLink: ReferenceResolver
  resolveImage: ReferenceResolver
}

export const createProcessor = (options: ProcessorOptions) =>
  unified()
    .use(remarkParse)
    .use(remarkGfm)
    .use(remarkDirective)
    .use(remarkAdmonitions)
    .use(remarkTabs)
    .use(remarkQuote)
    .use(remarkVideo)
    .use(remarkProviderCard, options)
    .use(remarkUnknownDirectives)
    .use(remarkLinks, options)
    .use(remarkImages, options)
    .use(remarkRehype)
    .use(rehypeHeadings)
    .use(rehypeCode)
    .freeze()

export type MarkdownProcessor = ReturnType<typeof createProcessor>

export interface RenderedMarkdown {
  html: string
  file: VFile
}

/** Renders one Markdown body; problems are left as messages on `file`. */
export const renderMarkdown = (
  processor: MarkdownProcessor,
  path: string,
  body: string,
): RenderedMarkdown => {
  const file = new VFile({ path, value: normalizeDirectiveTitles(body) })
  const mdast = processor.parse(file)
  const hast = processor.runSync(mdast, file) as HastRoot
  return { html: toHtml(hast), file }
}
