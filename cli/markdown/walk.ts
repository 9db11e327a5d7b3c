// A plain depth-first walk for the Markdown steps, in place of unist-util-visit: that one
// allocates a closure per node and renames it (Object.defineProperty) for its debug output,
// which cost more than the parser itself (measured with bench/markdown-stages.ts and --cpu-prof).

export const SKIP = 'skip'

interface ParentOf<T> {
  children: T[]
}

/**
 * Calls `visitor` on every node below `parent` in document order. The node's children are read
 * after the visitor returns, so children it sets are walked; returning SKIP walks none of them.
 */
export const walk = <T extends object, P extends ParentOf<T> = ParentOf<T>>(
  parent: P,
  visitor: (node: T, index: number, parent: P) => unknown,
): void => {
  const { children } = parent
  for (let index = 0; index < children.length; index++) {
    const node = children[index]
    if (visitor(node, index, parent) === SKIP) continue
    if ('children' in node && Array.isArray(node.children)) walk(node as unknown as P, visitor)
  }
}
