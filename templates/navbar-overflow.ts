// How many navbar links go into the "More" menu so that the rest fits on one row. The link lists
// shrink and clip rather than widen the page (styles.css), so a list whose links span more than
// its box is the sign that the row does not fit. After each render of the navbar, one more link
// moves while a list overflows; a change of the navbar's width starts again from none moved.
// Both run before paint (layout effects, and flushSync from the resize observer), so the reader
// never sees the intermediate rows.
import { type RefObject, useLayoutEffect, useState } from 'react'
import { flushSync } from 'react-dom'

/** Whether the children of `list` span more than its box (in either writing direction). */
const overflows = (list: HTMLElement): boolean => {
  const items = [...list.children].map((child) => child.getBoundingClientRect())
  if (!items.length) return false
  const span = Math.max(...items.map((r) => r.right)) - Math.min(...items.map((r) => r.left))
  return span > list.getBoundingClientRect().width + 0.5
}

/**
 * The number of links to move, in collapse order, out of `count`.
 * @param row the navbar row whose width decides (observed for resizes)
 * @param lists the shrinking lists holding the links still shown
 */
export function useCollapsedCount(
  count: number,
  row: RefObject<HTMLElement | null>,
  lists: RefObject<HTMLElement | null>[],
): number {
  const [collapsed, setCollapsed] = useState(0)
  // Bumped on every resize: starting again from none moved must render even when none was.
  const [, setEpoch] = useState(0)

  // No dependencies: anything that re-renders the navbar (a route, a dropdown's label, the
  // "More" button appearing) can change what fits.
  useLayoutEffect(() => {
    if (collapsed >= count) return
    if (lists.some((list) => list.current && overflows(list.current))) setCollapsed(collapsed + 1)
  })

  useLayoutEffect(() => {
    const el = row.current
    if (!el) return
    const restart = () =>
      flushSync(() => {
        setCollapsed(0)
        setEpoch((n) => n + 1)
      })
    let width = el.getBoundingClientRect().width
    const observer = new ResizeObserver(() => {
      const now = el.getBoundingClientRect().width
      if (now === width) return
      width = now
      restart()
    })
    observer.observe(el)
    // Web fonts arriving late change every link's width.
    void document.fonts?.ready.then(restart)
    return () => observer.disconnect()
  }, [row])

  return Math.min(collapsed, count)
}
