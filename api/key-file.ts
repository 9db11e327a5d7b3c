// Key material kept in files: a pair made on first start when neither file exists, with the
// private half readable by its owner only. Files are written whole or not at all (a temporary
// file renamed into place), so a full disk leaves no truncated key behind to break the next start.
import {
  chmodSync,
  closeSync,
  existsSync,
  fsyncSync,
  mkdirSync,
  openSync,
  renameSync,
  rmSync,
  writeSync,
} from 'node:fs'
import { basename, dirname, join } from 'node:path'

/** A key file that could not be written, said plainly (a full disk, a read-only folder). */
export class KeyFileError extends Error {
  override name = 'KeyFileError'
  constructor(path: string, cause: unknown) {
    const code = (cause as { code?: unknown }).code
    const reason =
      code === 'ENOSPC'
        ? 'no space left on the device'
        : code === 'EACCES' || code === 'EROFS'
          ? 'the folder is not writable'
          : (cause as Error).message
    super(`Could not write ${path}: ${reason}.`)
  }
}

const temporaryOf = (path: string) => join(dirname(path), `.${basename(path)}.${process.pid}.tmp`)

/** Writes `content` to a temporary file beside `path`, flushed to disk; returns its path. */
const writeTemporary = (path: string, content: string, mode: number): string => {
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 })
  const temporary = temporaryOf(path)
  try {
    const fd = openSync(temporary, 'w', mode)
    try {
      writeSync(fd, content)
      fsyncSync(fd)
    } finally {
      closeSync(fd)
    }
    // `mode` applies only when the file is new.
    chmodSync(temporary, mode)
    return temporary
  } catch (error) {
    rmSync(temporary, { force: true })
    throw new KeyFileError(path, error)
  }
}

/** Writes a file only its owner can read, creating its folder owner-only too. */
export const writeSecretFile = (path: string, content: string) => {
  const temporary = writeTemporary(path, content, 0o600)
  renameSync(temporary, path)
}

export interface KeyPairFiles {
  privatePath: string
  publicPath: string
}

/**
 * Generates and writes the pair when neither file exists; returns whether it did. One file
 * without the other is left for the caller to report. Both are written before either is put in
 * place, so a failure leaves neither and the next start generates the pair again.
 */
export const ensureKeyPair = async (
  files: KeyPairFiles,
  generate: () => Promise<{ privateKey: string; publicKey: string }>,
): Promise<boolean> => {
  if (existsSync(files.privatePath) || existsSync(files.publicPath)) return false
  const { privateKey, publicKey } = await generate()
  const privateTemporary = writeTemporary(files.privatePath, privateKey, 0o600)
  let publicTemporary: string
  try {
    publicTemporary = writeTemporary(files.publicPath, publicKey, 0o644)
  } catch (error) {
    rmSync(privateTemporary, { force: true })
    throw error
  }
  renameSync(privateTemporary, files.privatePath)
  try {
    renameSync(publicTemporary, files.publicPath)
  } catch (error) {
    rmSync(files.privatePath, { force: true })
    rmSync(publicTemporary, { force: true })
    throw new KeyFileError(files.publicPath, error)
  }
  return true
}
