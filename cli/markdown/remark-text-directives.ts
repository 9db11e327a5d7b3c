// remark plugin: a text directive (`:name`, `:name[label]{attrs}`) stays the text it was written
// as. Prose is full of colons ("10:30", "Note:this"), and Keyward gives no text directive a
// meaning. The text is restored as the parser closes each directive, before an image's alt text
// or a link's label is computed from it, so "![At 10:30](a.png)" keeps its whole alt.
import type { Parent, Text } from 'mdast'
import type { Extension } from 'mdast-util-from-markdown'
import type { Processor } from 'unified'
import type { Node } from 'unist'

const textDirectivesAsText: Extension = {
  exit: {
    directiveText(token) {
      this.exit(token)
      const siblings = (this.stack.at(-1) as Parent).children
      const node = siblings.at(-1) as Node
      const value = this.sliceSerialize(token)
      const before = siblings.at(-2)
      // Joined to the text before it (the parser adds the text after it to this node), so that
      // GFM finds "mailto:a@b.example" or "https://x.example/a:b" whole.
      if (before?.type === 'text') {
        before.value += value
        if (before.position && node.position) before.position.end = node.position.end
        siblings.pop()
        return
      }
      siblings[siblings.length - 1] = { type: 'text', value, position: node.position } as Text
    },
  },
}

/** Must come after remark-directive, whose own handler it replaces. */
export default function remarkTextDirectives(this: Processor) {
  const data = this.data()
  data.fromMarkdownExtensions ??= []
  data.fromMarkdownExtensions.push(textDirectivesAsText)
}
