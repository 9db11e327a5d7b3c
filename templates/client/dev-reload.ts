// Dev server only: reloads the page when the server rebuilt it (or the whole site).
const events = new EventSource('/__docs/events')
events.addEventListener('reload', (event) => {
  const { routes, full } = JSON.parse((event as MessageEvent).data) as {
    routes: string[]
    full: boolean
  }
  if (full || routes.includes(location.pathname)) location.reload()
})
events.addEventListener('build-error', (event) =>
  console.error(JSON.parse((event as MessageEvent).data)),
)
