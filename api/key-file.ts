// Key material kept in files: a pair made on first start when neither file exists, with the
// private half readable by its owner only.
import { chmodSync, existsSync, mkdirSync, writeFileSync } from 'node:fs'
import { dirname } from 'node:path'

/** Writes a file only its owner can read, creating its folder owner-only too. */
export const writeSecretFile = (path: string, content: string) => {
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 })
  writeFileSync(path, content, { mode: 0o600 })
  // `mode` applies only when the file is new.
  chmodSync(path, 0o600)
}

export interface KeyPairFiles {
  privatePath: string
  publicPath: string
}

/**
 * Generates and writes the pair when neither file exists; returns whether it did. One file
 * without the other is left for the caller to report.
 */
export const ensureKeyPair = async (
  files: KeyPairFiles,
  generate: () => Promise<{ privateKey: string; publicKey: string }>,
): Promise<boolean> => {
  if (existsSync(files.privatePath) || existsSync(files.publicPath)) return false
  const { privateKey, publicKey } = await generate()
  writeSecretFile(files.privatePath, privateKey)
  mkdirSync(dirname(files.publicPath), { recursive: true, mode: 0o700 })
  writeFileSync(files.publicPath, publicKey, { mode: 0o644 })
  return true
}
