// Builds the Markdown pipeline once: the markdown-it parser (CommonMark, GFM, directives) and
// Keyward's own steps, then remark-rehype and the rehype steps. `renderMarkdown` turns one file into HTML plus data.
import type { Root as HastRoot } from 'hast'
import { toHtml } from 'hast-util-to-html'
import type { Root as MdastRoot } from 'mdast'
import remarkRehype from 'remark-rehype'
import { type PluggableList, unified } from 'unified'
import { VFile } from 'vfile'
import type { ReferenceResolver } from './markdown/data.ts'
import { normalizeDirectiveTitles } from './markdown/directive-titles.ts'
import rehypeCode from './markdown/rehype-code.ts'
import rehypeHeadings from './markdown/rehype-headings.ts'
import rehypeIslands from './markdown/rehype-islands.ts'
import rehypeSections from './markdown/rehype-sections.ts'
import remarkKeyward from './markdown/remark-keyward.ts'
import remarkMarkdownIt from './markdown/remark-markdown-it.ts'

export interface ProcessorOptions {
  resolveLink: ReferenceResolver
  resolveImage: ReferenceResolver
  /**
   * The plugins that parse Markdown into mdast; only the comparison with remark-parse changes it.
   * @default [remarkMarkdownIt]
   */
  parser?: PluggableList
}

export const createProcessor = ({ parser = [remarkMarkdownIt], ...options }: ProcessorOptions) =>
  unified()
    .use(parser)
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
  const mdast = processor.parse(file) as MdastRoot
  const hast = processor.runSync(mdast, file) as HastRoot
  return { html: toHtml(hast), file }
}
