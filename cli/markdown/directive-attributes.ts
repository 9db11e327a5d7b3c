// Helpers shared by the directive plugins: the label of a directive and its hast properties.
import type { Paragraph, PhrasingContent, RootContent } from 'mdast'
import type { ContainerDirective } from 'mdast-util-directive'
import { toString as mdastToString } from 'mdast-util-to-string'

/** Removes and returns the `[label]` paragraph remark-directive puts first in a container. */
export const takeContainerLabel = (node: ContainerDirective): PhrasingContent[] | undefined => {
  const first = node.children[0] as RootContent | undefined
  if (first?.type === 'paragraph' && (first.data as { directiveLabel?: boolean })?.directiveLabel) {
    node.children.shift()
    return (first as Paragraph).children
  }
  return undefined
}

export const labelText = (children: PhrasingContent[] | undefined): string =>
  children ? mdastToString({ type: 'paragraph', children }) : ''

/** Sets the hast element a markdown node turns into. */
export const asElement = (
  node: { data?: object },
  tagName: string,
  properties: Record<string, unknown> = {},
): void => {
  node.data = { ...(node.data ?? {}), hName: tagName, hProperties: properties }
}
