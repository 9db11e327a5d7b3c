// rehype plugin: a ```mermaid fence becomes a diagram island (templates/Mermaid.tsx). The page
// carries the diagram's source, readable without scripts; the browser draws it as SVG with
// mermaid, whose code loads only on pages that have a diagram, in the reader's colour mode.
import type { Element, ElementContent, Root, RootContent } from 'hast'
import { toString as hastToString } from 'hast-util-to-string'
import { SKIP, walk } from './walk.ts'

export default function rehypeMermaid() {
  return (tree: Root) => {
    walk<RootContent | ElementContent, Root | Element>(tree, (node, index, parent) => {
      if (node.type !== 'element' || node.tagName !== 'pre') return
      const code = node.children[0]
      if (code?.type !== 'element' || code.tagName !== 'code') return
      const classes = (code.properties.className as string[] | undefined) ?? []
      if (!classes.includes('language-mermaid')) return
      const source = hastToString(code).replace(/\n$/, '')
      // The same markup as the component's first render, so hydration adopts it.
      parent.children[index] = {
        type: 'element',
        tagName: 'div',
        properties: { dataIsland: 'mermaid', dataProps: JSON.stringify({ code: source }) },
        children: [
          {
            type: 'element',
            tagName: 'div',
            properties: { className: ['mermaid'] },
            children: [
              {
                type: 'element',
                tagName: 'pre',
                properties: { className: ['mermaid__source'] },
                children: [{ type: 'text', value: source }],
              },
            ],
          },
        ],
      }
      return SKIP
    })
  }
}
