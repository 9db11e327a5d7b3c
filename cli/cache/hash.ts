// The build's hashes: content hashes in asset file names, and keys of any input.
import { createHash } from 'node:crypto'

/** SHA-256 of the parts, each ended by a NUL so that no two lists of parts collide. */
export const sha256 = (...parts: (string | Uint8Array)[]): string => {
  const hash = createHash('sha256')
  for (const part of parts) hash.update(part).update('\0')
  return hash.digest('hex')
}

/** A key for any JSON-able input. */
export const hashInput = (value: unknown): string => sha256(JSON.stringify(value))

/** The 8-hex content hash in asset file names. */
export const hashOf = (content: string | Uint8Array): string =>
  createHash('sha256').update(content).digest('hex').slice(0, 8)
