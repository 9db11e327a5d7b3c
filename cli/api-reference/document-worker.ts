// Worker that runs the bundled module of the API reference's document (cli/api-reference/
// load-document.ts) and answers with the document's JSON: the server's code loads in its own
// thread while the build renders Markdown, and leaves with it.
import { serveRequests } from '../workers/channel.ts'

serveRequests(async ({ url }: { url: string }) => {
  const { default: exported } = await import(url)
  if (exported === undefined) throw new Error('no default export')
  const document = typeof exported === 'function' ? await exported() : exported
  return JSON.stringify(document)
})
