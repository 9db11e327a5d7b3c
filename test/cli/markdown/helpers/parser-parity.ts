// Renders one Markdown body with the markdown-it parser and with remark-parse, and returns what
// the build keeps of each (HTML, file.data and messages), for comparing the two.
import { createProcessor, renderMarkdown } from '../../../../cli/markdown.ts'
import { remarkParser } from './remark-parser.ts'

// Every link is recorded for the link check, so the comparison covers the line of each.
const resolvers = {
  resolveLink: (href: string) =>
    /^(?:[a-z][a-z0-9+.-]*:|\/\/)/i.test(href) ? { url: href } : { url: href, check: href },
  resolveImage: (src: string) => ({ url: src }),
}
const markdownItProcessor = createProcessor(resolvers)
const remarkProcessor = createProcessor({ ...resolvers, parser: remarkParser })

const outcome = (rendered: ReturnType<typeof renderMarkdown>) => {
  const { html, file } = rendered
  const { links, headings, ids, h1, sections } = file.data
  return {
    html,
    data: { links, headings, ids, h1, sections },
    messages: file.messages.map((m) => `${m.line}:${m.fatal ? 'error' : 'warning'}: ${m.reason}`),
  }
}

export const renderBoth = (path: string, body: string) => ({
  markdownIt: outcome(renderMarkdown(markdownItProcessor, path, body)),
  remark: outcome(renderMarkdown(remarkProcessor, path, body)),
})
