// Ties a database error to the statement that failed, so the log of an unexpected one says
// which statement and where it was sent from. The statement is kept with its placeholders: the
// values bound to it (tokens, keys, secrets) never reach the log.
import type { MikroORM } from '@mikro-orm/core'

export interface FailedStatement {
  /** The SQL with `?` placeholders, cut to a readable length. */
  statement: string
  /** Where the statement was sent from (the async frames of the request's code). */
  stack: string
}

/**
 * A string-named own property: the ORM wraps a driver error by copying the error's own property
 * names onto its exception, so the record survives that wrapping.
 */
const PROPERTY = 'failedStatement'
const MAX_STATEMENT = 2_000

type Execute = (query: unknown, params?: unknown, ...rest: unknown[]) => Promise<unknown>

const statementText = (query: unknown): string => {
  if (typeof query === 'string') return query
  const built = (query as { toSQL?: () => { sql?: unknown } } | null)?.toSQL?.()
  return typeof built?.sql === 'string' ? built.sql : '(unknown statement)'
}

/**
 * The frames that sent the statement, deep enough to pass the ORM's own and reach the route's
 * code (V8 keeps ten by default), without this module's frame and Node's internal ones.
 */
const callerFrames = (): string => {
  const limit = Error.stackTraceLimit
  Error.stackTraceLimit = 40
  const stack = new Error().stack ?? ''
  Error.stackTraceLimit = limit
  return stack
    .split('\n')
    .slice(2)
    .filter((line) => !line.includes('(node:internal/'))
    .join('\n')
}

/** Every statement the ORM sends through its connection records itself on the error it fails with. */
export const recordFailedStatements = (orm: MikroORM): void => {
  const connection = orm.em.getDriver().getConnection() as unknown as { execute: Execute }
  const execute: Execute = connection.execute.bind(connection)
  connection.execute = async (query, ...rest) => {
    try {
      return await execute(query, ...rest)
    } catch (error) {
      if (error instanceof Error && !Object.hasOwn(error, PROPERTY)) {
        const record: FailedStatement = {
          statement: statementText(query).slice(0, MAX_STATEMENT),
          stack: callerFrames(),
        }
        Object.defineProperty(error, PROPERTY, { value: record, configurable: true })
      }
      throw error
    }
  }
}

/** The statement a database error came from, when it came from one. */
export const failedStatementOf = (error: unknown): FailedStatement | undefined => {
  if (!(error instanceof Error)) return undefined
  const record = (error as unknown as Record<string, unknown>)[PROPERTY]
  return record !== null && typeof record === 'object' && 'statement' in record
    ? (record as FailedStatement)
    : undefined
}
