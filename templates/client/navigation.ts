// How code outside the router opens a page, or shows the current page's new content (the dev
// server's live reload): through the router once it runs, else as a plain page load.
let handler: ((href: string) => void) | undefined
let refresher: (() => void) | undefined

export const setNavigator = (go: (href: string) => void, refresh: () => void): void => {
  handler = go
  refresher = refresh
}

export const go = (href: string): void => {
  if (handler) handler(href)
  else location.assign(href)
}

/** Shows the current page as rebuilt, where the reader is; a full reload before the router runs. */
export const refresh = (): void => {
  if (refresher) refresher()
  else location.reload()
}
