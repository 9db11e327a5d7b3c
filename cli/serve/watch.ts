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

/**
 * A file seen empty is most often one an editor (or `writeFileSync`) has truncated and not yet
 * written: building it would read a page without its title and headings, which changes the
 * sidebars and so rewrites every page twice. Its change is reported at the look after the
 * window instead, empty or not by then.
 */
const emptyState = (state: string | undefined) => state?.startsWith('0:') === true

export const watch = (options: WatchOptions): FSWatcher => {
  let batch: { path: string; event: string }[] = []
  let timer: NodeJS.Timeout | undefined
  /** What each changed file looked like when its change was reported. */
  const reported = new Map<string, string | undefined>()
  const queue = (event: string, path: string) => {
    if (!batch.some((change) => change.path === path && change.event === event))
      batch.push({ event, path })
    clearTimeout(timer)
    timer = setTimeout(() => {
      const changes = batch
      batch = []
      options.onChange(changes)
    }, options.debounceMs ?? 10)
  }
  const report = (event: string, path: string, again = false) => {
    if (event !== 'change' && event !== 'add') return queue(event, path)
    const seen = fileState(path)
    reported.set(path, seen)
    const deferred = !again && emptyState(seen)
    if (!deferred) queue(event, path)
    setTimeout(() => {
      const state = fileState(path)
      if (state !== undefined && (deferred || state !== reported.get(path)))
        report('change', path, true)
      else reported.delete(path)
    }, RECHECK_MS).unref()
  }
  // No awaitWriteFinish: editors write small files at once, and waiting would cost the
  // edit-to-reload budget; the short debounce groups a save's several events.
  const watcher = chokidarWatch(options.paths, {
    ignoreInitial: true,
    ignored: (path) => /(^|[/\\])\.[^/\\]/.test(path),
  })
  watcher.on('all', (event, path) => report(event, path))
  return watcher
}
