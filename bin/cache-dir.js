// Where the CLIs keep what they make at run time (bundles, the docs build cache): inside the
// install when it is writable (a clone), else in a writable cache folder outside it (a system
// package under ProtectSystem=strict, a container running as non-root). A folder outside the
// install gets a `node_modules` link back to the install's, so bundles that leave packages
// external still find them.
import { createHash } from 'node:crypto'
import {
  lstatSync,
  mkdirSync,
  readlinkSync,
  rmSync,
  symlinkSync,
  unlinkSync,
  writeFileSync,
} from 'node:fs'
import { homedir, tmpdir } from 'node:os'
import { join } from 'node:path'

/** Whether `dir` exists (made if need be) and takes a new file. */
const usable = (dir) => {
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 })
    // A shared temporary folder: only a real folder of our own will do.
    const stat = lstatSync(dir)
    if (!stat.isDirectory() || (process.getuid && stat.uid !== process.getuid())) return false
    const probe = join(dir, `.probe-${process.pid}`)
    writeFileSync(probe, '')
    unlinkSync(probe)
    return true
  } catch {
    return false
  }
}

/** Points `<dir>/node_modules` at the install's packages. */
const linkPackages = (dir, root) => {
  const link = join(dir, 'node_modules')
  const target = join(root, 'node_modules')
  try {
    if (readlinkSync(link) === target) return true
    rmSync(link, { force: true })
  } catch {
    // No link yet (or a plain file left there).
    rmSync(link, { force: true, recursive: true })
  }
  try {
    symlinkSync(target, link, 'dir')
    return true
  } catch {
    return false
  }
}

/**
 * A writable folder for this install's run-time files, or undefined when there is none (the
 * CLIs then run without one). In order: `node_modules/.cache/keyward` in the install,
 * KEYWARD_CACHE_DIR, systemd's CACHE_DIRECTORY, XDG_CACHE_HOME, ~/.cache, the temporary folder.
 * @param {string} root the install's folder, with a trailing slash
 * @returns {string | undefined}
 */
export const cacheFolder = (root) => {
  const inTree = join(root, 'node_modules', '.cache', 'keyward')
  const tree = `tree-${createHash('sha256').update(root).digest('hex').slice(0, 8)}`
  const home = (() => {
    try {
      return homedir()
    } catch {
      return ''
    }
  })()
  const outside = [
    process.env.KEYWARD_CACHE_DIR,
    process.env.CACHE_DIRECTORY?.split(':')[0],
    process.env.XDG_CACHE_HOME && join(process.env.XDG_CACHE_HOME, 'keyward'),
    home && join(home, '.cache', 'keyward'),
    join(tmpdir(), `keyward-cache-${process.getuid?.() ?? 'user'}`),
  ].filter(Boolean)
  if (usable(inTree)) return inTree
  for (const base of outside) {
    const dir = join(base, tree)
    if (usable(dir) && linkPackages(dir, root)) return dir
  }
  return undefined
}
