// Scrolling to a position or an anchor: smooth where the browser supports it (instant with
// reduced motion); elsewhere each animation frame moves 85 % of the remaining distance.
const reducedMotion = () => matchMedia('(prefers-reduced-motion: reduce)').matches

export const FALLBACK_STEP = 0.85

let frame = 0
let nativeSmooth = false

export const scrollToY = (y: number, smooth: boolean): void => {
  cancelAnimationFrame(frame)
  if (!smooth || reducedMotion()) {
    window.scrollTo({ top: y, behavior: 'instant' })
    // Chromium applies one more step of a smooth scroll under way (back pressed mid-animation)
    // after an instant scroll, so the position is set again once that scroll ends.
    if (nativeSmooth)
      addEventListener('scrollend', () => window.scrollTo({ top: y, behavior: 'instant' }), {
        once: true,
      })
    return
  }
  if (CSS.supports('scroll-behavior', 'smooth')) {
    nativeSmooth = true
    addEventListener('scrollend', () => (nativeSmooth = false), { once: true })
    window.scrollTo({ top: y, behavior: 'smooth' })
    return
  }
  const target = Math.max(0, Math.min(y, document.documentElement.scrollHeight - innerHeight))
  const tick = () => {
    const remaining = target - scrollY
    if (Math.abs(remaining) < 1) {
      window.scrollTo(0, target)
      return
    }
    window.scrollTo(0, scrollY + remaining * FALLBACK_STEP)
    frame = requestAnimationFrame(tick)
  }
  frame = requestAnimationFrame(tick)
}

/** The element an anchor (`#id`, URL-encoded or not) points at. */
export const anchorTarget = (hash: string): HTMLElement | null => {
  const id = hash.replace(/^#/, '')
  if (!id) return null
  try {
    return document.getElementById(decodeURIComponent(id))
  } catch {
    return document.getElementById(id)
  }
}

/** Scrolls to the anchor's element (below the sticky navbar); focuses it when focusable. */
export const scrollToAnchor = (hash: string, smooth: boolean): boolean => {
  const target = anchorTarget(hash)
  if (!target) return false
  // Land where the browser's own anchor jump would: below the sticky navbar (scroll padding).
  const offset =
    (parseFloat(getComputedStyle(document.documentElement).scrollPaddingTop) || 0) +
    (parseFloat(getComputedStyle(target).scrollMarginTop) || 0)
  scrollToY(target.getBoundingClientRect().top + scrollY - offset, smooth)
  if (target.hasAttribute('tabindex')) target.focus({ preventScroll: true })
  return true
}
