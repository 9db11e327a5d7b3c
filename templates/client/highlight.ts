// Search-term highlighting: marks the words of `?highlight=` in the page content, set when the
// reader comes from a search hit.
export const highlightTerms = (): void => {
  const terms = (new URL(location.href).searchParams.get('highlight') ?? '')
    .split(/\s+/)
    .filter((term) => term.length > 1)
    .map((term) => term.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
  const content = document.querySelector('.markdown')
  if (!terms.length || !content) return
  const pattern = new RegExp(`\\b(${terms.join('|')})[\\w-]*`, 'gi')
  const walker = document.createTreeWalker(content, NodeFilter.SHOW_TEXT)
  const nodes: Text[] = []
  while (walker.nextNode()) nodes.push(walker.currentNode as Text)
  for (const node of nodes) {
    const text = node.data
    if (!pattern.test(text)) continue
    pattern.lastIndex = 0
    const fragment = document.createDocumentFragment()
    let last = 0
    for (const match of text.matchAll(pattern)) {
      fragment.append(text.slice(last, match.index))
      const mark = document.createElement('mark')
      mark.dataset.searchHighlight = ''
      mark.textContent = match[0]
      fragment.append(mark)
      last = match.index + match[0].length
    }
    fragment.append(text.slice(last))
    node.replaceWith(fragment)
  }
}
