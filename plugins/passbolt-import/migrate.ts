// The whole move: read passbolt in one snapshot, check its server key, plan the rows, then
// write them into the empty Keyward database in one transaction and install the key.
import type { MikroORM } from '@mikro-orm/postgresql'
import { withMigratedTarget } from './dry-run.ts'
import { buildPlan, type Skipped } from './plan.ts'
import { installServerKey, readPassboltServerKey } from './server-key.ts'
import { readSource, type SchemaVersion, SOURCE_TABLES, type SourceTable } from './source.ts'
import { assertEmptyTarget, targetCounts, targetReferences, writePlan } from './write.ts'

export interface MigrateOptions {
  /** `mysql://user:pass@host:port/database` of passbolt. */
  from: string
  /** passbolt's `config/gpg` folder. */
  gpgDir: string
  /** passbolt's avatar cache (`tmp/avatars`), for pictures its database does not hold. */
  imagesDir?: string
  /** Report only: the target is read as migrated but left exactly as it was. */
  dryRun?: boolean
  /** The Keyward database; migrated unless this is a dry run. */
  orm: MikroORM
  /** Where Keyward reads its server key. */
  serverKey: { privatePath: string; publicPath: string }
  /** Progress lines: each table read and written, with its rows and the time taken. */
  progress?: (line: string) => void
}

export interface MigrationReport {
  schema: SchemaVersion
  serverKeyFingerprint: string
  /** Rows per table: read from passbolt, planned for Keyward, and in Keyward at the end. */
  counts: Record<SourceTable, { source: number; planned: number; target?: number }>
  skipped: Skipped[]
  warnings: string[]
  dryRun: boolean
}

/** `label: rows (seconds for this step, seconds since the start)`. */
const stopwatch = (progress: (line: string) => void) => {
  const start = performance.now()
  let last = start
  return (label: string, rows: number) => {
    const now = performance.now()
    const seconds = (ms: number) => (ms / 1000).toFixed(1)
    progress(`${label}: ${rows} rows (${seconds(now - last)} s, ${seconds(now - start)} s in all)`)
    last = now
  }
}

export const migrateFromPassbolt = async (options: MigrateOptions): Promise<MigrationReport> => {
  const progress = options.progress ?? (() => {})
  const lap = stopwatch(progress)
  const key = await readPassboltServerKey(options.gpgDir)
  const inspect = async (em: ReturnType<MikroORM['em']['fork']>) => {
    await assertEmptyTarget(em)
    return targetReferences(em)
  }
  // Refused before the long read when the target is in use (checked again when writing).
  if (!options.dryRun) await assertEmptyTarget(options.orm.em.fork())
  const { schema, data } = await readSource(options.from, (table, rows) =>
    lap(`read ${table}`, rows),
  )
  progress(`passbolt schema: ${schema.migrationName} (passbolt ${schema.release})`)
  const references = options.dryRun
    ? await withMigratedTarget(options.orm, inspect)
    : await inspect(options.orm.em.fork())
  const plan = await buildPlan(data, references, {
    serverKey: key.keys,
    imagesDir: options.imagesDir,
  })
  lap(
    'planned',
    Object.values(plan.rows).reduce((sum, rows) => sum + rows.length, 0),
  )
  const counts = {} as MigrationReport['counts']
  for (const table of SOURCE_TABLES)
    counts[table] = { source: data[table].length, planned: plan.rows[table].length }
  const report: MigrationReport = {
    schema,
    serverKeyFingerprint: key.fingerprint,
    counts,
    skipped: plan.skipped,
    warnings: plan.warnings,
    dryRun: Boolean(options.dryRun),
  }
  if (options.dryRun) return report
  await options.orm.em.fork().transactional(async (em) => {
    // Checked again inside the transaction, which a concurrent run's rows would make fail.
    await assertEmptyTarget(em)
    await writePlan(em, plan, (table, written) => lap(`wrote ${table}`, written))
  })
  lap(
    'committed',
    Object.values(plan.rows).reduce((sum, rows) => sum + rows.length, 0),
  )
  installServerKey(key, options.serverKey)
  const after = await targetCounts(options.orm.em.fork())
  for (const table of SOURCE_TABLES) counts[table].target = after[table]
  return report
}

/** The report as a table of counts, then every skipped row with its reason. */
export const formatReport = (report: MigrationReport): string => {
  const lines = [
    `${report.dryRun ? 'dry run: would import' : 'imported'} from passbolt ${report.schema.release} (server key ${report.serverKeyFingerprint})`,
    `${'table'.padEnd(24)}${'source'.padStart(8)}${(report.dryRun ? 'would' : 'target').padStart(8)}`,
  ]
  for (const [table, count] of Object.entries(report.counts))
    lines.push(
      `${table.padEnd(24)}${String(count.source).padStart(8)}${String(count.target ?? count.planned).padStart(8)}`,
    )
  if (report.skipped.length) {
    lines.push(`${report.skipped.length} row(s) ${report.dryRun ? 'would be' : 'were'} skipped:`)
    for (const row of report.skipped) lines.push(`  ${row.table} ${row.id}: ${row.reason}`)
  }
  for (const warning of report.warnings) lines.push(`warning: ${warning}`)
  return lines.join('\n')
}
