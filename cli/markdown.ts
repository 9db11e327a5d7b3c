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
import rehypeIslands from './markdown/rehype-islands.ts'
import rehypeSections from './markdown/rehype-sections.ts'
import remarkKeyward from './markdown/remark-keyward.ts'

export interface ProcessorOptions {
  resolveLink: ReferenceResolver
  resolveImage: ReferenceResolver
}

export const createProcessor = (options: ProcessorOptions) =>
  unified()
    .use(remarkParse)
    .use(remarkGfm)
    .use(remarkDirective)
    .use(remarkKeyward, options)
    .use(remarkRehype)
    .use(rehypeHeadings)
    .use(rehypeSections)
    .use(rehypeCode)
    .use(rehypeIslands)
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
