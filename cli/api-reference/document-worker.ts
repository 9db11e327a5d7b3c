// Worker thread: imports the module that builds the OpenAPI document (the server's plugins and
// their route declarations, a few seconds of loading) while the main thread renders Markdown,
// and posts the document back as JSON. It runs through tsx (see load-document.ts): the module
// is the project's TypeScript.
import { pathToFileURL } from 'node:url'
import { parentPort, workerData } from 'node:worker_threads'

const { file } = workerData as { file: string }
try {
  const { default: exported } = (await import(pathToFileURL(file).href)) as { default?: unknown }
  if (exported === undefined) throw new Error('no default export')
  const document = typeof exported === 'function' ? await exported() : exported
  parentPort!.postMessage({ type: 'done', json: JSON.stringify(document) })
} catch (error) {
  parentPort!.postMessage({
    type: 'failed',
    message: error instanceof Error ? error.message.split('\n')[0] : String(error),
  })
}
