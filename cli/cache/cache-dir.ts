// Where a build keeps its cache unless told otherwise.
import { createHash } from 'node:crypto'
import { accessSync, constants, mkdirSync } from 'node:fs'
import { join } from 'node:path'

/**
 * `<root>/.cache/docs` when the site's folder takes files; otherwise (a read-only install) a
 * folder in the CLI's own writable cache (KEYWARD_RUNTIME_CACHE, set by bin/docs.js), else none.
 */
export const defaultCacheDir = (root: string): string | false => {
  const inTree = join(root, '.cache', 'docs')
  if (takesFiles(inTree)) return inTree
  const shared = process.env.KEYWARD_RUNTIME_CACHE
  return shared
    ? join(shared, `docs-build-${createHash('sha256').update(root).digest('hex').slice(0, 8)}`)
    : false
}

const takesFiles = (dir: string) => {
  try {
    mkdirSync(dir, { recursive: true })
    accessSync(dir, constants.W_OK)
    return true
  } catch {
    return false
  }
}
