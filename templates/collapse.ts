// Height animation for collapsible sidebar categories: the duration grows with the content's
// height (a long list takes a little longer, never more than 600 ms) and is 1 ms when the
// reader asks for reduced motion.
export const collapseDuration = (height: number, reducedMotion: boolean): number =>
  reducedMotion ? 1 : Math.round(Math.min(600, 120 + Math.sqrt(height) * 9))

const prefersReducedMotion = () => matchMedia('(prefers-reduced-motion: reduce)').matches

/**
 * Animates `el` to open or closed, then calls `done`; returns a function that ends the animation
 * at once without calling `done`. It starts from the height `el` shows now, so an animation
 * started while another runs (a second click on the control) turns back from where it is.
 */
export const animateHeight = (el: HTMLElement, expand: boolean, done: () => void): (() => void) => {
  const shown = el.style.height ? el.getBoundingClientRect().height : undefined
  el.style.removeProperty('transition')
  const full = el.scrollHeight
  const ms = collapseDuration(full, prefersReducedMotion())
  el.dataset.collapseMs = String(ms)
  el.style.overflow = 'hidden'
  el.style.height = `${shown ?? (expand ? 0 : full)}px`
  el.getBoundingClientRect() // commit the start height before the transition starts
  el.style.transition = `height ${ms}ms ease-in-out`
  el.style.height = `${expand ? full : 0}px`
  let finished = false
  const end = (notify: boolean) => {
    if (finished) return
    finished = true
    el.removeEventListener('transitionend', onEnd)
    clearTimeout(timer)
    if (notify) {
      el.style.removeProperty('height')
      el.style.removeProperty('overflow')
      el.style.removeProperty('transition')
      done()
    }
  }
  const onEnd = () => end(true)
  el.addEventListener('transitionend', onEnd)
  const timer = setTimeout(onEnd, ms + 50)
  return () => end(false)
}
