// Fetches the bootstrap starts before the React part loads, handed over to whoever asks for the
// same address first. The page preloads its sidebar's items; fetching them at once uses that
// preload while the page loads, instead of when the page is idle (the browser warns about a
// preload left unused a few seconds after the load event).
const started = new Map<string, Promise<Response>>()

/** Starts fetching `url` now, for `takeEarlyFetch` to hand over later. */
export const fetchEarly = (url: string): void => {
  if (started.has(url)) return
  const response = fetch(url)
  // A failure is the taker's to see; until then it is not an unhandled rejection.
  response.catch(() => {})
  started.set(url, response)
}

/** The response of an early fetch of `url`, once; undefined when none was started. */
export const takeEarlyFetch = (url: string): Promise<Response> | undefined => {
  const response = started.get(url)
  started.delete(url)
  return response
}
