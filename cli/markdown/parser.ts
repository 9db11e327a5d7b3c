// The Markdown parser: one shared markdown-it instance set up to read what remark-parse,
// remark-gfm and remark-directive read (CommonMark, GFM tables, strikethrough, autolink literals,
// footnotes and task lists, block directives), about 15 times faster; `parseMarkdown` returns
// the mdast they would build. Inline footnotes (`^[…]`) are not GFM and stay off.

import type { Match } from 'linkify-it'
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

const md = new MarkdownIt('default', { html: true, linkify: true })
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
// GFM autolink literals: http(s)://, www. and e-mail addresses; not ftp:, //, or bare domains.
md.linkify.set({ fuzzyLink: true, fuzzyEmail: true, fuzzyIP: false })
md.linkify.add('ftp:', null).add('//', null)
// linkify-it checks the top-level domain of www. links and e-mails, GFM does not: accept the
// reserved ones documentation uses as well.
md.linkify.tlds(['example', 'test', 'invalid', 'localhost', 'local', 'internal', 'lan'], true)
const match = md.linkify.match.bind(md.linkify)
md.linkify.match = (text: string): Match[] | null =>
  match(text)?.filter((m) => m.schema !== '' || /^www\./i.test(m.raw)) ?? null

export const parseMarkdown = (source: string): Root => mdastFromTokens(md.parse(source, {}))
