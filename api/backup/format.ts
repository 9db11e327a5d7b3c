// What a backup archive holds and how its manifest reads: the one place the format is defined,
// for the writer and the reader.
import { join } from 'node:path'
import { z } from 'zod'
import type { ServerConfig } from '../config.ts'
import { serverKeyPaths } from '../server-key.ts'

/** Raised for every archive this server cannot restore; its message is for the administrator. */
export class BackupError extends Error {
  override name = 'BackupError'
}

/** The archive layout this code writes; a reader refuses any higher number. */
export const BACKUP_FORMAT = 1

export const MANIFEST = 'manifest.json'

/** The migrations table: its rows are the archive's `migrations`, not a data file. */
export const MIGRATIONS_TABLE = 'mikro_orm_migrations'

const sha256 = z.string().regex(/^[0-9a-f]{64}$/)

export const manifestSchema = z.object({
  format: z.number().int().min(1),
  application: z.literal('keyward'),
  version: z.string(),
  created: z.string(),
  /** Applied migrations of the database, in order: the schema the data files fit. */
  migrations: z.array(z.string().min(1)),
  tables: z.array(
    z.object({
      name: z.string().regex(/^[a-z_][a-z0-9_]*$/),
      columns: z.array(z.string().regex(/^[a-z_][a-z0-9_]*$/)).min(1),
      rows: z.number().int().min(0),
      file: z.string(),
    }),
  ),
  /** Every other entry of the archive with its SHA-256 and size. */
  files: z.record(z.string(), z.object({ sha256, size: z.number().int().min(0) })),
  serverKeyFingerprint: z.string(),
})

export type Manifest = z.output<typeof manifestSchema>

/** The key files, by their name in the archive. */
export const KEY_ENTRIES = {
  'keys/server-private.asc': 'serverPrivate',
  'keys/server-public.asc': 'serverPublic',
  'keys/jwt-private.pem': 'jwtPrivate',
  'keys/jwt-public.pem': 'jwtPublic',
} as const

/** The settings in force, with secrets (database and SMTP URLs): for a rebuilt host. */
export const CONFIG_ENTRY = 'config/keyward.config.json'

/** Where this server keeps its key files (the JWT pair where the jwt plugin puts it). */
export const keyFilePaths = (config: ServerConfig) => {
  const server = serverKeyPaths(config)
  return {
    serverPrivate: server.privatePath,
    serverPublic: server.publicPath,
    jwtPrivate: config.jwtPrivateKey ?? join(config.dataDir, 'jwt', 'jwt.key'),
    jwtPublic: config.jwtPublicKey ?? join(config.dataDir, 'jwt', 'jwt.pem'),
  }
}

/** A table's data file in the archive. */
export const tableEntry = (table: string) => `database/${table}.copy`
