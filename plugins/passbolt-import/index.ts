// Moves a passbolt CE organisation into an empty Keyward database: `api migrate-from-passbolt`.
// The plugin owns no table: it writes the other plugins' tables once, before the server runs.
import { createLogger } from '../../api/app.ts'
import { loadConfig } from '../../api/config.ts'
import { openDatabase } from '../../api/database.ts'
import { allMigrations, createOrm, migrate } from '../../api/orm.ts'
import { definePlugin } from '../../api/plugin.ts'
import { serverKeyPaths } from '../../api/server-key.ts'
import { formatReport, migrateFromPassbolt } from './migrate.ts'
import { ServerKeyImportError } from './server-key.ts'
import { SourceSchemaError } from './source.ts'
import { TargetNotEmptyError } from './write.ts'

export { formatReport, type MigrationReport, migrateFromPassbolt } from './migrate.ts'
export { releaseOf } from './source.ts'

interface CommandOptions {
  from: string
  gpgDir: string
  imagesDir?: string
  dryRun?: boolean
}

const expected = (error: unknown) =>
  error instanceof SourceSchemaError ||
  error instanceof TargetNotEmptyError ||
  error instanceof ServerKeyImportError

export default definePlugin({
  name: 'passbolt-import',
  // It matches passbolt's built-in roles and resource types to Keyward's by name and slug.
  // Its avatars are resized as the avatars plugin stores them, its SMTP settings sealed as the
  // smtp-settings plugin keeps them, its UI rights matched to the rbacs plugin's actions, and
  // each setting checked with the schema of the plugin that reads it.
  reads: [
    'roles',
    'resource-types',
    'rbacs',
    'avatars',
    'settings',
    'smtp-settings',
    'email-notifications',
    'metadata',
    'password-policies',
    'secret-revisions',
    'self-registration',
    'user-passphrase-policies',
  ],
  commands: (program) => {
    program
      .command('migrate-from-passbolt')
      .description('move a passbolt CE organisation (MariaDB/MySQL) into this empty Keyward')
      .requiredOption('--from <url>', "passbolt's database, mysql://USER:PASS@HOST:PORT/DB")
      .requiredOption('--gpg-dir <dir>', "passbolt's config/gpg folder (the server key pair)")
      .option(
        '--images-dir <dir>',
        "passbolt's avatar cache (tmp/avatars), for pictures its database does not hold",
      )
      .option('--dry-run', 'report what would be imported and skipped; change nothing')
      .action(async (options: CommandOptions) => {
        const { plugins } = await import('../index.ts')
        const config = loadConfig()
        const database = await openDatabase(config, createLogger({ logLevel: 'warn' }))
        try {
          const orm = await createOrm({
            url: database.url,
            entities: plugins.flatMap((plugin) => plugin.entities ?? []),
            migrations: allMigrations(plugins),
          })
          try {
            // A dry run sees the migrated schema inside a transaction it rolls back.
            if (!options.dryRun) await migrate(orm)
            const report = await migrateFromPassbolt({
              from: options.from,
              gpgDir: options.gpgDir,
              imagesDir: options.imagesDir,
              dryRun: options.dryRun,
              orm,
              serverKey: serverKeyPaths(config),
              // On stderr, so the report on stdout stays one table whatever is watching.
              progress: (line) => console.error(line),
            })
            console.log(formatReport(report))
          } finally {
            await orm.close()
          }
        } catch (error) {
          if (!expected(error)) throw error
          console.error((error as Error).message)
          process.exitCode = 1
        } finally {
          await database.stop()
        }
      })
  },
})
