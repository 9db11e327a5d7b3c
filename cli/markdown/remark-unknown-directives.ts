// remark plugin, the last of the remark steps: a block directive that no step turned into an
// element is an error, since its content would be shown as if the directive were not there.
// A step claims a directive by setting `data.hName`, the usual way of remark directive plugins,
// so an author's own plugin can handle directives of its own. Keyward's directives are never
// reported here: their steps report what is wrong with them.
import type { Root, RootContent } from 'mdast'
import type { VFile } from 'vfile'
import { reportError } from './messages.ts'
import { walk } from './walk.ts'

const KEYWARD_CONTAINERS = new Set([
  'note',
  'tip',
  'info',
  'warning',
  'danger',
  'details',
  'tabs',
  'tab',
  'quote',
])
const KEYWARD_LEAVES = new Set(['video', 'providerCard'])

export default function remarkUnknownDirectives() {
  return (tree: Root, file: VFile) => {
    walk<RootContent>(tree, (node) => {
      if (node.type !== 'containerDirective' && node.type !== 'leafDirective') return
      if ((node.data as { hName?: string } | undefined)?.hName) return
      if (node.type === 'containerDirective' && !KEYWARD_CONTAINERS.has(node.name))
        reportError(file, node, `unknown directive ":::${node.name}"`)
      else if (node.type === 'leafDirective' && !KEYWARD_LEAVES.has(node.name))
        reportError(file, node, `unknown directive "::${node.name}"`)
    })
  }
}
