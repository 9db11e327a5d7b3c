// How code outside the router opens a page: through client navigation once the router runs,
// else as a plain page load.
let handler: ((href: string) => void) | undefined

export const setNavigator = (go: (href: string) => void): void => {
  handler = go
}

export const go = (href: string): void => {
  if (handler) handler(href)
  else location.assign(href)
}
