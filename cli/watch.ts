// Watches the content and template folders and reports changed paths in small batches.
import { watch as chokidarWatch, type FSWatcher } from 'chokidar'

export interface WatchOptions {
  paths: string[]
  /** Called once per batch of changes, after `debounceMs` of quiet. */
  onChange: (changes: { path: string; event: string }[]) => void
  /** @default 10 */
  debounceMs?: number
}

export const watch = (options: WatchOptions): FSWatcher => {
  let batch: { path: string; event: string }[] = []
  let timer: NodeJS.Timeout | undefined
  // No awaitWriteFinish: editors write small files at once, and waiting would cost the
  // edit-to-reload budget; the short debounce groups a save's several events.
  const watcher = chokidarWatch(options.paths, {
    ignoreInitial: true,
    ignored: (path) => /(^|[/\\])\.[^/\\]/.test(path),
  })
  watcher.on('all', (event, path) => {
    batch.push({ event, path })
    clearTimeout(timer)
    timer = setTimeout(() => {
      const changes = batch
      batch = []
      options.onChange(changes)
    }, options.debounceMs ?? 10)
  })
  return watcher
}
