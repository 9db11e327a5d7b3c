// Renders one doc's Markdown and turns the file's messages into diagnostics; used by the
// builder directly and by the render workers.
import type { DocSource } from '../content/content.ts'
import { type RenderedDoc, titleOf } from '../content/pages.ts'
import type { Diagnostic } from '../errors.ts'
import { type MarkdownProcessor, renderMarkdown } from '../markdown/pipeline.ts'

export interface DocRenderResult {
  rendered: RenderedDoc
  errors: Diagnostic[]
  warnings: Diagnostic[]
}

export const renderDoc = (processor: MarkdownProcessor, source: DocSource): DocRenderResult => {
  const { html, file } = renderMarkdown(processor, source.file, source.body)
  const errors: Diagnostic[] = []
  const warnings: Diagnostic[] = []
  for (const message of file.messages) {
    const diagnostic = {
      file: source.displayPath,
      line: message.line ?? undefined,
      message: message.reason,
    }
    ;(message.fatal ? errors : warnings).push(diagnostic)
  }
  return {
    rendered: {
      sections: file.data.sections ?? [],
      html,
      title: titleOf(source, file.data.h1),
      headings: file.data.headings ?? [],
      ids: file.data.ids ?? [],
      links: file.data.links ?? [],
    },
    errors,
    warnings,
  }
}
