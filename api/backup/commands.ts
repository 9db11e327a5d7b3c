// `api backup` and `api restore` on the command line.
import type { Command } from 'commander'
import pg from 'pg'
import { createLogger } from '../app.ts'
import { loadConfig } from '../config.ts'
import { openDatabase } from '../database.ts'
import { allMigrations, createOrm } from '../orm.ts'
import type { Plugin } from '../plugin.ts'
import { createBackup } from './backup.ts'
import { readBackup, restoreBackup } from './restore.ts'

const kib = (bytes: number) => `${Math.ceil(bytes / 1024)} KiB`

export const registerBackupCommands = (
  program: Command,
  plugins: readonly Plugin[],
  version: string,
) => {
  program
    .command('backup')
    .description(
      'write one archive of the database (a consistent snapshot, the server keeps running), the server and JWT keys and the settings',
    )
    .requiredOption(
      '-o, --output <file>',
      'the archive to write (tar.gz, or OpenPGP with --encrypt-to)',
    )
    .option('--encrypt-to <keyfile>', 'encrypt the archive to this armored OpenPGP public key')
    .action(async (options: { output: string; encryptTo?: string }) => {
      const config = loadConfig()
      const database = await openDatabase(config, createLogger({ logLevel: 'warn' }))
      try {
        const summary = await createBackup({
          config,
          databaseUrl: database.url,
          output: options.output,
          encryptTo: options.encryptTo,
          version,
        })
        console.log(
          `wrote ${summary.output} (${kib(summary.bytes)}${summary.encrypted ? ', encrypted' : ''}): ${summary.tables} tables, ${summary.rows} rows, server and JWT keys, settings`,
        )
      } finally {
        await database.stop()
      }
    })
  program
    .command('restore')
    .description(
      'restore an archive of `api backup` into an empty database and data folder (checked whole first)',
    )
    .argument('<file>', 'the archive')
    .option(
      '--decrypt-with <keyfile>',
      'the armored OpenPGP private key of an encrypted archive (its passphrase in KEYWARD_BACKUP_PASSPHRASE)',
    )
    .option('--check', 'only read and check the archive; write nothing')
    .action(async (file: string, options: { decryptWith?: string; check?: boolean }) => {
      const archive = await readBackup(file, {
        decryptWith: options.decryptWith,
        passphrase: process.env.KEYWARD_BACKUP_PASSPHRASE,
      })
      const { manifest } = archive
      console.log(
        `${file}: format ${manifest.format}, Keyward ${manifest.version}, made ${manifest.created}, ${manifest.tables.length} tables, every checksum verified`,
      )
      if (options.check) return
      const config = loadConfig()
      const database = await openDatabase(config, createLogger({ logLevel: 'warn' }))
      try {
        const migrations = allMigrations(plugins)
        const orm = await createOrm({
          url: database.url,
          entities: plugins.flatMap((plugin) => plugin.entities ?? []),
          migrations,
        })
        const client = new pg.Client({ connectionString: database.url })
        try {
          await client.connect()
          const summary = await restoreBackup(archive, {
            config,
            orm,
            client,
            knownMigrations: migrations.map((migration) => migration.name),
          })
          console.log(
            `restored ${summary.rows} rows in ${summary.tables} tables, the server key ${summary.serverKeyFingerprint} and the JWT keys; the archived settings are in ${summary.configFile}`,
          )
        } finally {
          await client.end().catch(() => {})
          await orm.close()
        }
      } finally {
        await database.stop()
      }
    })
}
