// The OpenAPI document behind the API reference: from the build cache while the files it is
// built from are unchanged (hashed, a few milliseconds), else from its module, bundled with
// esbuild (in its own process) and run in a worker thread (./document-worker.ts), so the server's code loads while
// the build renders Markdown. Bundling costs about half of what loading the sources through
// tsx does.
import { createHash } from 'node:crypto'
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { join, relative } from 'node:path'
import type { OpenApiDocument } from '../../model/openapi.ts'
import type { SiteConfig } from '../../model/site-config.ts'
import type { BuildCache } from '../cache/build-cache.ts'
import { bundleErrorMessage, withBundledModule } from '../config/module-bundle.ts'
import { DocsError } from '../errors.ts'
import { WorkerChannel } from '../workers/channel.ts'
import { startTsWorker } from '../workers/start-worker.ts'

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

const runModule = (file: string): Promise<string> =>
  withBundledModule(file, async (url) => {
    const worker = new WorkerChannel<{ url: string }, string>(
      startTsWorker(new URL('./document-worker.ts', import.meta.url)),
    )
    try {
      return await worker.request({ url })
    } catch (error) {
      // The module's first line says what went wrong; the rest is its stack.
      throw new Error(String(error instanceof Error ? error.message : error).split('\n')[0])
    } finally {
      void worker.terminate()
    }
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
      json = await runModule(file)
    } catch (error) {
      throw new DocsError(`${reference.document}: ${bundleErrorMessage(error)}`)
    }
    cache?.storeEntry('api-document', key, json)
  }
  const document = JSON.parse(json) as OpenApiDocument
  if (typeof document.openapi !== 'string' || !document.openapi.startsWith('3.1'))
    throw new DocsError(`${reference.document}: not an OpenAPI 3.1 document`)
  return { document, json, key }
}
