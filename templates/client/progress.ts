// The route-change progress bar: it appears only when a navigation takes longer than 200 ms,
// starts at 8 %, moves with 200 ms transitions and creeps forward every 800 ms until done.
export const PROGRESS = { delay: 200, minimum: 0.08, speed: 200, trickle: 800 } as const

let bar: HTMLElement | undefined
let value = 0
let showTimer: ReturnType<typeof setTimeout> | undefined
let trickleTimer: ReturnType<typeof setInterval> | undefined

const set = (n: number) => {
  value = Math.min(Math.max(n, PROGRESS.minimum), 1)
  if (!bar) return
  bar.style.transform = `translateX(${(value - 1) * 100}%)`
  bar.setAttribute('aria-valuenow', value.toFixed(2))
}

/** Smaller steps the further it gets, so it never reaches the end on its own. */
const step = (n: number) => (n < 0.2 ? 0.1 : n < 0.5 ? 0.04 : n < 0.8 ? 0.02 : n < 0.99 ? 0.005 : 0)

const show = () => {
  bar = document.createElement('div')
  bar.className = 'route-progress'
  bar.setAttribute('role', 'progressbar')
  bar.setAttribute('aria-label', 'Loading the page')
  bar.setAttribute('aria-valuemin', '0')
  bar.setAttribute('aria-valuemax', '1')
  bar.style.transition = `transform ${PROGRESS.speed}ms linear`
  document.body.append(bar)
  set(PROGRESS.minimum)
  trickleTimer = setInterval(() => set(value + step(value)), PROGRESS.trickle)
}

export const startProgress = (): void => {
  doneProgress()
  showTimer = setTimeout(show, PROGRESS.delay)
}

export const doneProgress = (): void => {
  clearTimeout(showTimer)
  clearInterval(trickleTimer)
  const finished = bar
  bar = undefined
  if (!finished) return
  finished.style.transform = 'translateX(0)'
  finished.style.opacity = '0'
  finished.style.transition = `transform ${PROGRESS.speed}ms linear, opacity ${PROGRESS.speed}ms linear ${PROGRESS.speed}ms`
  setTimeout(() => finished.remove(), PROGRESS.speed * 2)
}
