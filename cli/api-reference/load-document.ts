// The OpenAPI document behind the API reference: from the build cache while the files it is
// built from are unchanged (hashed, a few milliseconds), else from its module, loaded in a worker
// thread so the server's code loads while the build renders Markdown.
import { createHash } from 'node:crypto'
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { join, relative } from 'node:path'
import type { BuildCache } from '../build-cache.ts'
import { DocsError } from '../errors.ts'
import type { SiteConfig } from '../site-config.ts'
import { startTsWorker } from '../ts-worker.ts'
import type { OpenApiDocument } from './openapi-types.ts'

export interface LoadedDocument {
  document: OpenApiDocument
  /** The document's JSON as written beside the page. */
  json: string
  /** Hash of the sources it was built from. */
  key: string
}

const IGNORED = new Set(['node_modules', '.git', '.cache', '.data'])

const filesOf = (path: string): string[] => {
  if (!existsSync(path)) return []
  if (!statSync(path).isDirectory()) return [path]
  return readdirSync(path, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name))
    .filter((file) => !file.split(/[\\/]/).some((part) => IGNORED.has(part)))
    .sort()
}

/** A hash of every file the document is built from (paths and contents). */
export const sourcesKey = (root: string, reference: NonNullable<SiteConfig['apiReference']>) => {
  const hash = createHash('sha256').update(reference.document).update('\0')
  for (const file of [reference.document, ...reference.sources].flatMap((source) =>
    filesOf(join(root, source)),
  ))
    hash.update(relative(root, file)).update('\0').update(readFileSync(file)).update('\0')
  return hash.digest('hex')
}

const runWorker = (file: string): Promise<string> =>
  new Promise((resolve, reject) => {
    const worker = startTsWorker(new URL('./document-worker.ts', import.meta.url), {
      workerData: { file },
      // Through tsx, which also loads the project's TypeScript the module imports.
      fresh: true,
    })
    worker.once('error', reject)
    worker.once('message', (message: { type: string; json?: string; message?: string }) => {
      void worker.terminate()
      if (message.type === 'done') resolve(message.json!)
      else reject(new Error(message.message))
    })
  })

/** Starts loading the document; await the result when the page is written. */
export const loadApiDocument = async (
  root: string,
  reference: NonNullable<SiteConfig['apiReference']>,
  cache: BuildCache | undefined,
): Promise<LoadedDocument> => {
  const key = sourcesKey(root, reference)
  let json = cache?.entry<string>('api-document', key)
  if (json === undefined) {
    const file = join(root, reference.document)
    if (!existsSync(file)) throw new DocsError(`${reference.document}: file not found`)
    try {
      json = await runWorker(file)
    } catch (error) {
      throw new DocsError(`${reference.document}: ${(error as Error).message}`)
    }
    cache?.storeEntry('api-document', key, json)
  }
  const document = JSON.parse(json) as OpenApiDocument
  if (typeof document.openapi !== 'string' || !document.openapi.startsWith('3.1'))
    throw new DocsError(`${reference.document}: not an OpenAPI 3.1 document`)
  return { document, json, key }
}
