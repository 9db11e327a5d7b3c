// rehype plugin: cuts the page into searchable sections, one per h2/h3 plus the part before the
// first of them, each with its heading, anchor and plain text.
import type { Root, RootContent } from 'hast'
import { toString as hastToString } from 'hast-util-to-string'
import type { VFile } from 'vfile'

export interface Section {
  /** Heading id; '' for the top of the page. */
  id: string
  heading: string
  text: string
}

const isSectionHeading = (node: RootContent) =>
  node.type === 'element' && (node.tagName === 'h2' || node.tagName === 'h3')

export default function rehypeSections() {
  return (tree: Root, file: VFile) => {
    const sections: Section[] = [{ id: '', heading: '', text: '' }]
    const parts: string[][] = [[]]
    for (const node of tree.children) {
      if (isSectionHeading(node) && node.type === 'element') {
        // The anchor link adds a trailing '#'; the heading text is what precedes it.
        const heading = hastToString(node).replace(/#$/, '').trim()
        sections.push({ id: String(node.properties.id ?? ''), heading, text: '' })
        parts.push([])
      } else parts.at(-1)!.push(hastToString(node))
    }
    sections.forEach((section, i) => {
      section.text = parts[i].join(' ').replace(/\s+/g, ' ').trim()
    })
    file.data.sections = sections.filter(
      (section) => section.id === '' || section.text || section.heading,
    )
  }
}
