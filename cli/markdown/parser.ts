// The Markdown parser: one shared markdown-it instance set up to read what remark-parse,
// remark-gfm and remark-directive read (CommonMark, GFM tables, strikethrough, footnotes and task
// lists, block directives), many times faster; `parseMarkdown` returns the mdast they would
// build, autolink literals included. Inline footnotes (`^[…]`) are not GFM and stay off.

import MarkdownIt, { type PluginSimple } from 'markdown-it'
import markdownItFootnote from 'markdown-it-footnote'
import type { Root } from 'mdast'
import { directiveBlocks } from './directive-blocks.ts'
import { footnoteReferences } from './footnote-references.ts'
import { gfmStrikethrough } from './gfm-strikethrough.ts'
import { mdastFromTokens } from './mdast-from-tokens.ts'
import { referenceTokens } from './reference-tokens.ts'
import { sourceLines } from './source-lines.ts'
import { textDirectives } from './text-directives.ts'

// Autolink literals are found in the mdast (./autolink-literals.ts), as remark-gfm finds them.
const md = new MarkdownIt('default', { html: true, linkify: false })
  // Its types describe the CommonJS build of markdown-it; the plugin is the same function.
  .use(markdownItFootnote as unknown as PluginSimple)
  .use(footnoteReferences)
  .use(directiveBlocks)
  .use(textDirectives)
  .use(referenceTokens)
  .use(gfmStrikethrough)
  .use(sourceLines)
// Footnote definitions stay where they are written, as in mdast; remark-rehype collects them.
md.core.ruler.disable('footnote_tail')
md.inline.ruler.disable('footnote_inline')
// mdast keeps URLs as written (remark-rehype encodes them) and keeps every scheme.
md.normalizeLink = (url) => url
md.normalizeLinkText = (text) => text
md.validateLink = () => true

export const parseMarkdown = (source: string): Root => mdastFromTokens(md.parse(source, {}))
