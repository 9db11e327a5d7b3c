// `api backup`: one archive (tar.gz, optionally OpenPGP-encrypted) holding a consistent snapshot
// of the database, the server and JWT key pairs and the settings, with a manifest of checksums.
// The server keeps running: the snapshot is one repeatable-read transaction.
import { createHash } from 'node:crypto'
import {
  chmodSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs'
import { basename, dirname, join, resolve } from 'node:path'
import * as openpgp from 'openpgp'
import pg from 'pg'
import { create as createTar } from 'tar'
import type { ServerConfig } from '../config.ts'
import { snapshotDatabase } from './database-copy.ts'
import {
  BACKUP_FORMAT,
  BackupError,
  CONFIG_ENTRY,
  KEY_ENTRIES,
  keyFilePaths,
  MANIFEST,
  type Manifest,
  tableEntry,
} from './format.ts'

export interface BackupOptions {
  config: ServerConfig
  /** The database to read (the embedded one's address when it runs). */
  databaseUrl: string
  output: string
  /** An armored OpenPGP public key file: the archive is encrypted to it. */
  encryptTo?: string
  /** The running release, recorded in the manifest. */
  version: string
}

export interface BackupSummary {
  output: string
  tables: number
  rows: number
  bytes: number
  encrypted: boolean
}

const readKeyFiles = (config: ServerConfig) => {
  const paths = keyFilePaths(config)
  const content: Record<string, Buffer> = {}
  for (const [entry, field] of Object.entries(KEY_ENTRIES)) {
    try {
      content[entry] = readFileSync(paths[field])
    } catch (error) {
      throw new BackupError(
        `cannot read ${paths[field]} (${(error as NodeJS.ErrnoException).code}): a backup needs the server's key files`,
      )
    }
  }
  return content
}

const encryptionKey = async (file: string) => {
  try {
    return await openpgp.readKey({ armoredKey: readFileSync(file, 'utf8') })
  } catch (error) {
    throw new BackupError(
      `--encrypt-to ${file}: not an OpenPGP public key (${(error as Error).message})`,
    )
  }
}

/** The settings as a configuration file would hold them (undefined fields left out). */
const configFile = (config: ServerConfig) =>
  `${JSON.stringify(
    Object.fromEntries(Object.entries(config).filter(([, value]) => value !== undefined)),
    null,
    2,
  )}\n`

export const createBackup = async (options: BackupOptions): Promise<BackupSummary> => {
  const output = resolve(options.output)
  const keys = readKeyFiles(options.config)
  const recipient = options.encryptTo ? await encryptionKey(options.encryptTo) : undefined
  const fingerprint = (
    await openpgp.readKey({ armoredKey: keys['keys/server-public.asc'].toString('utf8') })
  )
    .getFingerprint()
    .toUpperCase()

  const client = new pg.Client({ connectionString: options.databaseUrl })
  await client.connect()
  let snapshot: Awaited<ReturnType<typeof snapshotDatabase>>
  try {
    snapshot = await snapshotDatabase(client)
  } finally {
    await client.end().catch(() => {})
  }

  // Staged beside the output (the administrator chose that disk), owner-only: it holds keys.
  mkdirSync(dirname(output), { recursive: true })
  const stage = mkdtempSync(join(dirname(output), `.${basename(output)}.`))
  chmodSync(stage, 0o700)
  const partial = `${stage}.partial`
  try {
    const files: Manifest['files'] = {}
    const put = (entry: string, content: Buffer | string) => {
      const data = typeof content === 'string' ? Buffer.from(content) : content
      mkdirSync(dirname(join(stage, entry)), { recursive: true, mode: 0o700 })
      writeFileSync(join(stage, entry), data, { mode: 0o600 })
      files[entry] = { sha256: createHash('sha256').update(data).digest('hex'), size: data.length }
    }
    for (const table of snapshot.tables) put(tableEntry(table.name), table.data)
    for (const [entry, content] of Object.entries(keys)) put(entry, content)
    put(CONFIG_ENTRY, configFile(options.config))
    const manifest: Manifest = {
      format: BACKUP_FORMAT,
      application: 'keyward',
      version: options.version,
      created: new Date().toISOString(),
      migrations: snapshot.migrations,
      tables: snapshot.tables.map((table) => ({
        name: table.name,
        columns: table.columns,
        rows: table.rows,
        file: tableEntry(table.name),
      })),
      files,
      serverKeyFingerprint: fingerprint,
    }
    writeFileSync(join(stage, MANIFEST), `${JSON.stringify(manifest, null, 2)}\n`, { mode: 0o600 })
    // The manifest first: a reader learns the format before anything else.
    await createTar({ gzip: true, cwd: stage, file: partial, portable: true }, [
      MANIFEST,
      ...Object.keys(files),
    ])
    chmodSync(partial, 0o600)
    if (recipient) {
      const encrypted = await openpgp.encrypt({
        message: await openpgp.createMessage({ binary: readFileSync(partial) }),
        encryptionKeys: recipient,
        format: 'binary',
      })
      writeFileSync(partial, encrypted as Uint8Array, { mode: 0o600 })
    }
    const bytes = readFileSync(partial).length
    renameSync(partial, output)
    return {
      output,
      tables: snapshot.tables.length,
      rows: snapshot.tables.reduce((sum, table) => sum + table.rows, 0),
      bytes,
      encrypted: Boolean(recipient),
    }
  } finally {
    rmSync(stage, { recursive: true, force: true })
    rmSync(partial, { force: true })
  }
}
