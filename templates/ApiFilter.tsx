// The API reference's filter (an island): hides the operations, in the navigation and in the
// content, whose method, path, summary or id does not hold every word typed, and the tag groups
// left empty. It works on the server-rendered page (`data-api-op` holds each operation's text),
// so the page ships no copy of the document for it. It also marks the operation in view in the
// navigation it sits in.
import { useEffect, useRef, useState } from 'react'
import { trackCurrentOperation } from './api/current-operation.ts'

const apply = (query: string): { shown: number; total: number } => {
  const words = query.toLowerCase().split(/\s+/).filter(Boolean)
  const matches = (element: Element) => {
    const text = element.getAttribute('data-api-op') ?? ''
    return words.every((word) => text.includes(word))
  }
  let shown = 0
  const sections = document.querySelectorAll<HTMLElement>('section[data-api-op]')
  for (const element of sections) {
    element.hidden = !matches(element)
    if (!element.hidden) shown++
  }
  for (const element of document.querySelectorAll<HTMLElement>('li[data-api-op]'))
    element.hidden = !matches(element)
  for (const group of document.querySelectorAll<HTMLElement>('[data-api-tag]'))
    group.hidden = !group.querySelector('[data-api-op]:not([hidden])')
  return { shown, total: sections.length }
}

export function ApiFilter() {
  const [query, setQuery] = useState('')
  const [count, setCount] = useState('')
  const first = useRef(true)
  // Says the island is live (tests wait for it after client navigation).
  const [live, setLive] = useState(false)
  useEffect(() => setLive(true), [])
  useEffect(trackCurrentOperation, [])
  useEffect(() => {
    if (first.current && !query) {
      first.current = false
      return
    }
    const { shown, total } = apply(query)
    setCount(query ? `${shown} of ${total} operations` : '')
  }, [query])
  return (
    <div className="api-filter">
      <input
        type="search"
        className="api-filter__input"
        placeholder="Filter by path or name"
        aria-label="Filter operations by path or name"
        data-live={live ? '' : undefined}
        value={query}
        onChange={(event) => setQuery(event.currentTarget.value)}
      />
      <p className="api-filter__count" aria-live="polite">
        {count}
      </p>
    </div>
  )
}
