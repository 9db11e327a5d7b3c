// Work that can wait until the browser is idle. Without requestIdleCallback (Safari) it runs
// after `fallbackDelay` ms instead. Returns a function that cancels it.
export const whenIdle = (
  callback: () => void,
  { timeout, fallbackDelay }: { timeout?: number; fallbackDelay: number },
): (() => void) => {
  if ('requestIdleCallback' in window) {
    const handle = requestIdleCallback(() => callback(), timeout ? { timeout } : undefined)
    return () => cancelIdleCallback(handle)
  }
  const handle = setTimeout(callback, fallbackDelay)
  return () => clearTimeout(handle)
}
