// rehype plugin: marks the interactive parts of the content as islands (see templates/Island.tsx)
// that the browser hydrates with React components: each tab list (templates/TabList.tsx) and
// each copy button (templates/CopyButton.tsx). The markup inside each island is exactly what its
// component renders, so hydration adopts it as it is.
import type { Element, ElementContent, Root, RootContent } from 'hast'
import { toHtml } from 'hast-util-to-html'
import type { TabListProps } from '../../templates/TabList.tsx'
import { SKIP, walk } from './walk.ts'

const hasClass = (node: Element, name: string) =>
  Array.isArray(node.properties.className) && node.properties.className.includes(name)

const island = (name: string, props: object, child: Element): Element => ({
  type: 'element',
  tagName: 'div',
  properties: { dataIsland: name, dataProps: JSON.stringify(props) },
  children: [child],
})

const tabListProps = (list: Element, groupId: unknown): TabListProps => ({
  groupId: typeof groupId === 'string' ? groupId : undefined,
  tabs: list.children.flatMap((button) =>
    button.type === 'element'
      ? [
          {
            id: String(button.properties.id),
            value: String(button.properties.dataValue),
            label: toHtml(button.children),
          },
        ]
      : [],
  ),
})

export default function rehypeIslands() {
  return (tree: Root) => {
    walk<RootContent | ElementContent, Root | Element>(tree, (node, index, parent) => {
      if (node.type !== 'element') return
      if (hasClass(node, 'tabs__list') && parent.type === 'element') {
        const props = tabListProps(node, parent.properties.dataGroupId)
        // The label sits in a span: the component renders it from its HTML.
        for (const button of node.children)
          if (button.type === 'element')
            button.children = [
              { type: 'element', tagName: 'span', properties: {}, children: button.children },
            ]
        parent.children[index] = island('tabs', props, node)
        return SKIP
      }
      if (hasClass(node, 'copy-button')) {
        parent.children[index] = island('copy', {}, node)
        return SKIP
      }
    })
  }
}
