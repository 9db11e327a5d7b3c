// Watches the content and template folders and reports changed paths in small batches.
import { statSync } from 'node:fs'
import { watch as chokidarWatch, type FSWatcher } from 'chokidar'

export interface WatchOptions {
  paths: string[]
  /** Called once per batch of changes, after `debounceMs` of quiet. */
  onChange: (changes: { path: string; event: string }[]) => void
  /** @default 10 */
  debounceMs?: number
}

/**
 * chokidar drops a file's change that comes within 50 ms of the one before, with no trailing
 * event: a save right after another (or an editor writing in two steps) would never be built.
 * Each reported change is looked at again once that window has passed.
 */
const RECHECK_MS = 60

const fileState = (path: string): string | undefined => {
  try {
    const stats = statSync(path)
    return `${stats.size}:${stats.mtimeMs}`
  } catch {
    return undefined
  }
}

export const watch = (options: WatchOptions): FSWatcher => {
  let batch: { path: string; event: string }[] = []
  let timer: NodeJS.Timeout | undefined
  /** What each changed file looked like when its change was reported. */
  const reported = new Map<string, string | undefined>()
  const report = (event: string, path: string) => {
    batch.push({ event, path })
    clearTimeout(timer)
    timer = setTimeout(() => {
      const changes = batch
      batch = []
      options.onChange(changes)
    }, options.debounceMs ?? 10)
    if (event !== 'change' && event !== 'add') return
    reported.set(path, fileState(path))
    setTimeout(() => {
      const state = fileState(path)
      if (state !== undefined && state !== reported.get(path)) report('change', path)
      else reported.delete(path)
    }, RECHECK_MS).unref()
  }
  // No awaitWriteFinish: editors write small files at once, and waiting would cost the
  // edit-to-reload budget; the short debounce groups a save's several events.
  const watcher = chokidarWatch(options.paths, {
    ignoreInitial: true,
    ignored: (path) => /(^|[/\\])\.[^/\\]/.test(path),
  })
  watcher.on('all', report)
  return watcher
}
