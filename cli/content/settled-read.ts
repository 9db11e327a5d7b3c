// Reads a doc that an editor may be writing at that moment, for the dev server's rebuilds.
import { readFileSync, statSync } from 'node:fs'
import { setTimeout as sleep } from 'node:timers/promises'

/** How long to wait before reading a file again that looked unfinished. */
const SETTLE_MS = 25
const ATTEMPTS = 4

/**
 * An editor that saves in place truncates the file and then writes it, and a rebuild that
 * reads in between gets an empty or partial page: a page without its title changes the
 * sidebars, and every page is rewritten twice. A read is taken when the file's size matches
 * what was read and the text is not empty, or when an empty file stays empty. `undefined`
 * when the file cannot be read (the caller reports why).
 */
export const readSettled = async (file: string): Promise<string | undefined> => {
  for (let attempt = 1; ; attempt++) {
    let text: string
    try {
      text = readFileSync(file, 'utf8')
    } catch {
      return undefined
    }
    const size = statSync(file, { throwIfNoEntry: false })?.size
    const settled = size === Buffer.byteLength(text) && (text !== '' || attempt > 1)
    if (settled || attempt === ATTEMPTS) return text
    await sleep(SETTLE_MS)
  }
}
