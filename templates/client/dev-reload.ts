// Dev server only: reloads the page when the server reports that the site was rebuilt.
const events = new EventSource('/__docs/events')
events.addEventListener('reload', () => location.reload())
events.addEventListener('build-error', (event) => console.error((event as MessageEvent).data))
