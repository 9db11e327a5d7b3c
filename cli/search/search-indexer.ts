// Search worker of the build and the dev server: keeps the site's search index in its own
// thread, so indexing runs beside page rendering and never holds up a dev-server rebuild.
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs'
import { dirname } from 'node:path'
import { deserialize, serialize } from 'node:v8'
import { threadId } from 'node:worker_threads'
import { readRendered } from '../cache/rendered-files.ts'
import { serveRequests } from '../workers/channel.ts'
import {
  SearchIndex,
  type SearchSnapshot,
  writeIndexFiles,
  writeSearchFiles,
} from './search-index.ts'
import type { SearchRequest, SearchResponse, SnapshotFile } from './search-job.ts'

/** The index of the last build, to update rather than rebuild (kept beside the build cache). */
const readSnapshot = (file: SnapshotFile | undefined): SearchSnapshot | undefined => {
  if (!file || !existsSync(file.path)) return undefined
  try {
    const stored = deserialize(readFileSync(file.path)) as { key: string; snapshot: SearchSnapshot }
    return stored.key === file.key ? stored.snapshot : undefined
  } catch {
    return undefined // unreadable: index from scratch
  }
}

const writeSnapshot = (file: SnapshotFile, snapshot: SearchSnapshot) => {
  mkdirSync(dirname(file.path), { recursive: true })
  const temporary = `${file.path}.${process.pid}.${threadId}.tmp`
  writeFileSync(temporary, serialize({ key: file.key, snapshot }))
  renameSync(temporary, file.path)
}

/** The snapshot is rewritten once more pages than this differ from it. */
const SNAPSHOT_AFTER = 20

let index: SearchIndex | undefined
let snapshot: SnapshotFile | undefined
let outBase = ''
/** The files of the index last written or handed out, kept one update longer for readers. */
let previous = new Set<string>()

/** Pages analysed since the snapshot was last written. */
let analysed = 0

/** Makes the index's files and writes them; the snapshot follows once the answer is sent. */
const writeFiles = (later: (work: () => void) => void): SearchResponse => {
  const { files, manifest } = index!.files()
  // Written here, beside the page writes, rather than after them in the main thread, which
  // records them in the build's output and writes the manifest.
  writeIndexFiles(outBase, files)
  previous = new Set(files.keys())
  // Rewriting the snapshot costs more than analysing a few pages again next time; the
  // build need not wait for it (a `flush` answers after it).
  const file = snapshot
  if (file && (analysed > SNAPSHOT_AFTER || !existsSync(file.path)))
    later(() => writeSnapshot(file, index!.snapshot()))
  analysed = 0
  // Names only: the main thread records them, and copying the contents to it costs.
  return { files: [...files.keys()], manifest }
}

const handle = (request: SearchRequest, later: (work: () => void) => void): SearchResponse => {
  switch (request.type) {
    case 'init':
      index = new SearchIndex(request.settings, readSnapshot(request.snapshot))
      outBase = request.outBase
      snapshot = request.snapshot
      return {}
    case 'set': {
      // Pages sent by key that the index does not hold: the main thread sends them again, whole.
      const need = index!.missing(request.pages)
      if (need.length) return { need }
      // Sections sent as a cache file are read here, page by page, and never cross threads.
      analysed += index!.setPages(request.pages, (file) => readRendered(file).sections)
      return request.defer ? {} : writeFiles(later)
    }
    case 'files':
      return writeFiles(later)
    case 'flush':
      return {}
    case 'update': {
      index!.updatePages(request.pages, request.removed)
      const written = index!.files()
      writeSearchFiles(outBase, written, previous)
      previous = new Set(written.files.keys())
      return {}
    }
  }
}

serveRequests(handle)
