// unified parser plugin: parses with markdown-it (./parser.ts) instead of micromark.
import type { Root } from 'mdast'
import type { Plugin } from 'unified'
import { parseMarkdown } from './parser.ts'

const remarkMarkdownIt: Plugin<[], string, Root> = function () {
  this.parser = (document) => parseMarkdown(document)
}

export default remarkMarkdownIt
