// remark plugin: `::::tabs{groupId=…}` holding `:::tab[Label]{value=…}` items becomes an ARIA
// tab set. Tab sets sharing a group id switch together in the browser.

import Slugger from 'github-slugger'
import type { Root, RootContent } from 'mdast'
import type { ContainerDirective } from 'mdast-util-directive'
import type { VFile } from 'vfile'
import { asElement, labelText, takeContainerLabel } from './directive-attributes.ts'
import { reportError } from './messages.ts'
import { walk } from './walk.ts'

/** A `:::tab` met on its own (tab sets mark theirs before the walk reaches them). */
const strayTab = (node: ContainerDirective, file: VFile): void => {
  if (!(node.data as { inTabs?: boolean } | undefined)?.inTabs)
    reportError(file, node, 'a ":::tab" must be inside a "::::tabs" container')
}

/** `set` numbers the page's tab sets, for unique ids. */
const tabSet = (node: ContainerDirective, file: VFile, set: number): void => {
  takeContainerLabel(node)
  const tabs = node.children.filter(
    (child): child is ContainerDirective =>
      child.type === 'containerDirective' && child.name === 'tab',
  )
  // Claim the tabs first, so a bad set reports one error and not one per tab as well.
  for (const tab of tabs) tab.data = { ...(tab.data ?? {}), inTabs: true } as typeof tab.data
  if (tabs.length === 0 || tabs.length !== node.children.length) {
    reportError(file, node, '"::::tabs" must contain only ":::tab[Label]" items')
    return
  }
  const slugger = new Slugger()
  const buttons = tabs.map((tab, index) => {
    const label = takeContainerLabel(tab)
    const text = labelText(label) || `Tab ${index + 1}`
    const value = tab.attributes?.value || slugger.slug(text)
    const tabId = `tabs-${set}-${index}`
    asElement(tab, 'div', {
      role: 'tabpanel',
      id: `${tabId}-panel`,
      ariaLabelledBy: tabId,
      dataValue: value,
      tabIndex: 0,
      // Hidden by the stylesheet only once scripts run: without them every panel shows,
      // headed by its label.
      dataInactive: index > 0 ? '' : undefined,
      dataLabel: text,
      className: ['tabs__panel'],
    })
    return {
      type: 'paragraph' as const,
      children: label ?? [{ type: 'text' as const, value: text }],
      data: {
        hName: 'button',
        hProperties: {
          type: 'button',
          role: 'tab',
          id: tabId,
          ariaControls: `${tabId}-panel`,
          ariaSelected: index === 0 ? 'true' : 'false',
          tabIndex: index === 0 ? 0 : -1,
          dataValue: value,
          className: ['tabs__tab'],
        },
      },
    }
  })
  const list = {
    type: 'paragraph' as const,
    children: buttons,
    data: { hName: 'div', hProperties: { role: 'tablist', className: ['tabs__list'] } },
  }
  node.children = [list, ...tabs] as unknown as typeof node.children
  asElement(node, 'div', {
    className: ['tabs'],
    dataGroupId: node.attributes?.groupId || undefined,
  })
}

export default function remarkTabs() {
  return (tree: Root, file: VFile) => {
    let sets = 0
    walk<RootContent>(tree, (node) => {
      if (node.type !== 'containerDirective') return
      if (node.name === 'tabs') tabSet(node, file, sets++)
      else if (node.name === 'tab') strayTab(node, file)
    })
  }
}
