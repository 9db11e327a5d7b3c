// Marks the operation in view in the API reference's navigation (`aria-current="true"`) as the
// reader scrolls, and scrolls the navigation to keep the mark in sight. Runs in the browser, from
// the filter island, which lives in that navigation.

/**
 * The band of the window, below the navbar, in which an operation counts as the one being read:
 * its top third. Of the operations crossing it, the lowest is the one the reader has reached.
 */
const BAND = '-60px 0px -67% 0px'

/** Starts marking; returns what stops it (the island unmounting, client navigation). */
export const trackCurrentOperation = (): (() => void) => {
  const nav = document.querySelector<HTMLElement>('.api-ref__nav')
  const sections = [...document.querySelectorAll<HTMLElement>('section.api-op[id]')]
  if (!nav || !sections.length || !('IntersectionObserver' in window)) return () => {}
  const links = new Map<string, HTMLAnchorElement>()
  for (const link of nav.querySelectorAll<HTMLAnchorElement>('li[data-api-op] > a[href^="#"]'))
    links.set(link.getAttribute('href')!.slice(1), link)
  const order = new Map(sections.map((section, i) => [section, i]))
  const crossing = new Set<HTMLElement>()
  let marked: HTMLAnchorElement | undefined

  const mark = (link: HTMLAnchorElement | undefined) => {
    if (link === marked) return
    marked?.removeAttribute('aria-current')
    marked = link
    if (!link) return
    link.setAttribute('aria-current', 'true')
    // Only the navigation's own scroll moves: the window stays where the reader is.
    const box = nav.getBoundingClientRect()
    const at = link.getBoundingClientRect()
    if (at.top < box.top || at.bottom > box.bottom)
      nav.scrollTop += at.top - box.top - (nav.clientHeight - at.height) / 2
  }

  const observer = new IntersectionObserver(
    (entries) => {
      for (const entry of entries) {
        const section = entry.target as HTMLElement
        if (entry.isIntersecting) crossing.add(section)
        else crossing.delete(section)
      }
      // Between two operations (a tag's heading in the band) the last mark stays.
      if (!crossing.size) return
      const current = [...crossing].reduce((a, b) => (order.get(a)! > order.get(b)! ? a : b))
      mark(links.get(current.id))
    },
    { rootMargin: BAND },
  )
  for (const section of sections) observer.observe(section)
  return () => {
    observer.disconnect()
    mark(undefined)
  }
}
