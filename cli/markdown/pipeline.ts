// Builds the Markdown pipeline once: remark-parse with GFM, math and directives, Keyward's remark steps,
// the site's own remark plugins, remark-rehype, the site's rehype plugins, KaTeX, Keyward's
// rehype steps, rehype-stringify. `renderMarkdown` turns one file into HTML plus data.
import type { Root as HastRoot } from 'hast'
import rehypeKatex from 'rehype-katex'
import rehypeStringify from 'rehype-stringify'
import remarkDirective from 'remark-directive'
import remarkGfm from 'remark-gfm'
import remarkMath from 'remark-math'
import remarkParse from 'remark-parse'
import remarkRehype from 'remark-rehype'
import { type PluggableList, unified } from 'unified'
import { VFile } from 'vfile'
import type { ReferenceResolver } from './data.ts'
import { normalizeDirectiveTitles } from './directive-titles.ts'
import { reportError } from './messages.ts'
import rehypeCode from './rehype-code.ts'
import rehypeHeadings from './rehype-headings.ts'
import rehypeIslands from './rehype-islands.ts'
import rehypeMermaid from './rehype-mermaid.ts'
import rehypeRawHtml from './rehype-raw-html.ts'
import rehypeSections from './rehype-sections.ts'
import remarkAdmonitions from './remark-admonitions.ts'
import remarkProviderCard from './remark-provider-card.ts'
import remarkQuote from './remark-quote.ts'
import remarkRawHtml from './remark-raw-html.ts'
import remarkReferences from './remark-references.ts'
import remarkTabs from './remark-tabs.ts'
import remarkTextDirectives from './remark-text-directives.ts'
import remarkUnknownDirectives from './remark-unknown-directives.ts'
import remarkVideo from './remark-video.ts'
import { PluginFailure } from './site-plugins.ts'
import { checkSourceLimits } from './source-limits.ts'

export interface ProcessorOptions {
  resolveLink: ReferenceResolver
  resolveImage: ReferenceResolver
  /** The site's remark plugins: after Keyward's remark steps. */
  remarkPlugins?: PluggableList
  /** The site's rehype plugins: before Keyward's rehype steps. */
  rehypePlugins?: PluggableList
}

/**
 * KaTeX where a page can have math: rehype-katex walks every element of every page, and math
 * comes only from `$` (remark-math) or a ```` ```math ```` fence, unless a site plugin makes some.
 */
const rehypeKatexWhereMath = (sitePlugins: boolean) => () => {
  const typeset = rehypeKatex()
  return (tree: HastRoot, file: VFile) => {
    if (sitePlugins || /\$|math/.test(String(file.value))) typeset(tree, file)
  }
}

export const createProcessor = ({
  remarkPlugins = [],
  rehypePlugins = [],
  ...resolvers
}: ProcessorOptions) =>
  unified()
    .use(remarkParse)
    .use(remarkGfm)
    .use(remarkMath)
    .use(remarkDirective)
    .use(remarkTextDirectives)
    .use(remarkReferences, resolvers)
    .use(remarkAdmonitions)
    .use(remarkTabs)
    .use(remarkQuote)
    .use(remarkVideo)
    .use(remarkProviderCard, resolvers)
    .use(remarkRawHtml)
    .use(remarkPlugins)
    .use(remarkUnknownDirectives)
    // Only the HTML remarkRawHtml kept, or the site's own plugins made, is left to parse.
    .use(remarkRehype, { allowDangerousHtml: true })
    .use(rehypeRawHtml)
    .use(rehypePlugins)
    // Math is typeset here, so pages ship KaTeX's stylesheet and no script.
    .use(rehypeKatexWhereMath(remarkPlugins.length + rehypePlugins.length > 0))
    // Before sections: a diagram's source is not text to search.
    .use(rehypeMermaid)
    .use(rehypeHeadings)
    .use(rehypeSections)
    .use(rehypeCode)
    .use(rehypeIslands)
    .use(rehypeStringify)
    .freeze()

export type MarkdownProcessor = ReturnType<typeof createProcessor>

export interface RenderedMarkdown {
  html: string
  file: VFile
}

/**
 * Renders one Markdown body; problems are left as messages on `file`. A body past the parser's
 * bounds (./markdown/source-limits.ts) is not parsed: its HTML is empty and its error says where.
 */
export const renderMarkdown = (
  processor: MarkdownProcessor,
  path: string,
  body: string,
): RenderedMarkdown => {
  const file = new VFile({ path, value: normalizeDirectiveTitles(body) })
  const problem = checkSourceLimits(String(file.value))
  if (problem) {
    const point = { line: problem.line, column: 1 }
    reportError(file, { type: 'root', position: { start: point, end: point } }, problem.reason)
    return { html: '', file }
  }
  try {
    return { html: String(processor.processSync(file)), file }
  } catch (error) {
    // The doc fails, naming the plugin; the rest of the site still renders and reports.
    if (!(error instanceof PluginFailure)) throw error
    reportError(file, undefined, error.message)
    return { html: '', file }
  }
}
