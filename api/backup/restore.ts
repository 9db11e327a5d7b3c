// `api restore`: reads a backup archive whole and checks it (format, manifest, every checksum)
// before anything is written; then, into an empty database and data folder only, migrates the
// schema to the archive's migrations and loads the rows in the same transaction, and writes the
// key files and the archived settings.
import { createHash } from 'node:crypto'
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { Readable } from 'node:stream'
import { pipeline } from 'node:stream/promises'
import type { MikroORM } from '@mikro-orm/postgresql'
import * as openpgp from 'openpgp'
import type pg from 'pg'
import { Parser } from 'tar'
import type { ServerConfig } from '../config.ts'
import { writeSecretFile } from '../key-file.ts'
import { countRows, databaseIsEmpty, loadTables } from './database-copy.ts'
import {
  BACKUP_FORMAT,
  BackupError,
  CONFIG_ENTRY,
  KEY_ENTRIES,
  keyFilePaths,
  MANIFEST,
  type Manifest,
  manifestSchema,
} from './format.ts'

export interface BackupArchive {
  manifest: Manifest
  entries: Map<string, Buffer>
}

const GZIP = [0x1f, 0x8b]

const decrypt = async (data: Buffer, file: string, keyFile?: string, passphrase?: string) => {
  if (!keyFile)
    throw new BackupError(
      `${file} is encrypted: name the private key that opens it with --decrypt-with KEYFILE`,
    )
  let privateKey: openpgp.PrivateKey
  try {
    privateKey = await openpgp.readPrivateKey({ armoredKey: readFileSync(keyFile, 'utf8') })
    if (!privateKey.isDecrypted()) {
      if (passphrase === undefined)
        throw new Error('the key needs its passphrase (KEYWARD_BACKUP_PASSPHRASE)')
      privateKey = await openpgp.decryptKey({ privateKey, passphrase })
    }
  } catch (error) {
    throw new BackupError(`--decrypt-with ${keyFile}: ${(error as Error).message}`)
  }
  try {
    const { data: plain } = await openpgp.decrypt({
      message: await openpgp.readMessage({ binaryMessage: data }),
      decryptionKeys: privateKey,
      format: 'binary',
    })
    return Buffer.from(plain as Uint8Array)
  } catch (error) {
    throw new BackupError(
      `${file} could not be decrypted (${(error as Error).message}): truncated, altered, or encrypted to another key`,
    )
  }
}

/** Every entry of a tar.gz, in memory; a truncated or corrupt stream is an error. */
const untar = async (data: Buffer, file: string) => {
  const entries = new Map<string, Buffer>()
  const parser = new Parser({
    strict: true,
    onReadEntry: (entry) => {
      const chunks: Buffer[] = []
      entry.on('data', (chunk: Buffer) => chunks.push(chunk))
      entry.on('end', () => {
        if (entry.type === 'File') entries.set(entry.path, Buffer.concat(chunks))
      })
    },
  })
  try {
    await pipeline(Readable.from([data]), parser)
  } catch (error) {
    throw new BackupError(`${file} is truncated or damaged: ${(error as Error).message}`)
  }
  return entries
}

/** Reads and checks an archive; nothing is written. */
export const readBackup = async (
  file: string,
  options: { decryptWith?: string; passphrase?: string } = {},
): Promise<BackupArchive> => {
  let data: Buffer
  try {
    data = readFileSync(file)
  } catch (error) {
    throw new BackupError(`cannot read ${file} (${(error as NodeJS.ErrnoException).code})`)
  }
  if (data.length < 2) throw new BackupError(`${file} is empty or truncated`)
  if (data[0] !== GZIP[0] || data[1] !== GZIP[1]) {
    // OpenPGP packets start with a byte whose high bit is set.
    if (!(data[0] & 0x80)) throw new BackupError(`${file} is not a Keyward backup`)
    data = await decrypt(data, file, options.decryptWith, options.passphrase)
    if (data[0] !== GZIP[0] || data[1] !== GZIP[1])
      throw new BackupError(`${file} does not hold a Keyward backup once decrypted`)
  }
  const entries = await untar(data, file)
  const rawManifest = entries.get(MANIFEST)
  if (!rawManifest) throw new BackupError(`${file} has no ${MANIFEST}: not a Keyward backup`)
  let parsed: unknown
  try {
    parsed = JSON.parse(rawManifest.toString('utf8'))
  } catch {
    throw new BackupError(`${file}: ${MANIFEST} is not JSON`)
  }
  const format = (parsed as { format?: unknown })?.format
  if (typeof format === 'number' && format > BACKUP_FORMAT)
    throw new BackupError(
      `${file} was written in backup format ${format} by a newer Keyward; this one reads format ${BACKUP_FORMAT}: upgrade Keyward first`,
    )
  const result = manifestSchema.safeParse(parsed)
  if (!result.success)
    throw new BackupError(`${file}: ${MANIFEST} is not valid (${result.error.issues[0]?.message})`)
  const manifest = result.data
  for (const [entry, expected] of Object.entries(manifest.files)) {
    const content = entries.get(entry)
    if (!content) throw new BackupError(`${file} is missing ${entry}: truncated or altered`)
    const actual = createHash('sha256').update(content).digest('hex')
    if (content.length !== expected.size || actual !== expected.sha256)
      throw new BackupError(
        `${file}: checksum mismatch in ${entry}: the archive was altered or damaged`,
      )
  }
  for (const entry of entries.keys())
    if (entry !== MANIFEST && !(entry in manifest.files))
      throw new BackupError(`${file} holds ${entry}, which its manifest does not list: altered`)
  for (const table of manifest.tables) {
    const content = entries.get(table.file)
    if (!content || !(table.file in manifest.files))
      throw new BackupError(`${file}: the data of table ${table.name} is missing`)
    if (countRows(content) !== table.rows)
      throw new BackupError(
        `${file}: table ${table.name} holds a different number of rows than its manifest says`,
      )
  }
  for (const entry of Object.keys(KEY_ENTRIES))
    if (!entries.has(entry)) throw new BackupError(`${file} is missing ${entry}`)
  return { manifest, entries }
}

export interface RestoreTarget {
  config: ServerConfig
  /** An ORM on the target database, knowing every migration of this release. */
  orm: MikroORM
  /** The names of every migration this release has. */
  knownMigrations: readonly string[]
  /** A connection on the target database (for the emptiness check). */
  client: pg.ClientBase
}

export interface RestoreSummary {
  tables: number
  rows: number
  migrations: number
  configFile: string
  serverKeyFingerprint: string
}

/** Refuses a target that holds anything, and an archive from a newer schema. */
export const checkTarget = async (archive: BackupArchive, target: RestoreTarget) => {
  const known = new Set(target.knownMigrations)
  const unknown = archive.manifest.migrations.filter((name) => !known.has(name))
  if (unknown.length)
    throw new BackupError(
      `the archive's database was migrated by a newer Keyward (${unknown.join(', ')} unknown here): upgrade Keyward first`,
    )
  const paths = keyFilePaths(target.config)
  for (const path of Object.values(paths))
    if (existsSync(path))
      throw new BackupError(
        `${path} already exists: restore needs an empty data folder (move the existing key files away first)`,
      )
  if (!(await databaseIsEmpty(target.client)))
    throw new BackupError(
      'the target database is not empty: restore into a new, empty database (or drop this one first)',
    )
}

export const restoreBackup = async (
  archive: BackupArchive,
  target: RestoreTarget,
): Promise<RestoreSummary> => {
  await checkTarget(archive, target)
  const { manifest, entries } = archive
  const order = new Map(target.knownMigrations.map((name, index) => [name, index]))
  const migrations = [...manifest.migrations].sort(
    (a, b) => (order.get(a) ?? 0) - (order.get(b) ?? 0),
  )
  // Schema and rows commit together: a failure leaves the database as empty as it was.
  await target.orm.em.fork().transactional(async (em) => {
    const trx = em.getTransactionContext()
    if (migrations.length)
      await target.orm.getMigrator().up({ migrations, transaction: trx } as never)
    const connection = (await (
      trx as unknown as { client: { acquireConnection(): Promise<pg.ClientBase> } }
    ).client.acquireConnection()) as pg.ClientBase
    await loadTables(
      connection,
      manifest.tables.map((table) => ({
        name: table.name,
        columns: table.columns,
        data: entries.get(table.file) as Buffer,
      })),
    )
  })
  const paths = keyFilePaths(target.config)
  for (const [entry, field] of Object.entries(KEY_ENTRIES)) {
    const content = (entries.get(entry) as Buffer).toString('utf8')
    if (field.endsWith('Private')) writeSecretFile(paths[field], content)
    else {
      // Public halves: readable by anyone, as when the server makes them.
      mkdirSync(dirname(paths[field]), { recursive: true, mode: 0o700 })
      writeFileSync(paths[field], content, { mode: 0o644 })
    }
  }
  const configFile = join(target.config.dataDir, 'restored.keyward.config.json')
  writeSecretFile(configFile, (entries.get(CONFIG_ENTRY) as Buffer).toString('utf8'))
  return {
    tables: manifest.tables.length,
    rows: manifest.tables.reduce((sum, table) => sum + table.rows, 0),
    migrations: migrations.length,
    configFile,
    serverKeyFingerprint: manifest.serverKeyFingerprint,
  }
}
