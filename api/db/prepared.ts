// Queries that run on most requests (the caller's account, session and view), compiled once
// from the query builder and run as prepared statements: PostgreSQL then plans them once per
// connection instead of on every call (planning is most of the cost of a small query), and the
// builder's compilation is not repeated. They run on the request's connection, inside its
// transaction when it has one.
import { createHash } from 'node:crypto'
import type { EntityManager, Knex } from '@mikro-orm/postgresql'

/** Marks where a parameter goes while the query is compiled. */
const MARKER = '\u0001keyward-parameter:'

export interface CompiledQuery {
  name: string
  text: string
  /** Per native binding: the parameter index, or the constant value itself. */
  bindings: ({ parameter: number } | { value: unknown })[]
}

interface PgConnection {
  query(config: { name: string; text: string; values: unknown[] }): Promise<{ rows: unknown[] }>
}

export type PreparedQuery<P extends unknown[], T> = (
  em: EntityManager,
  ...parameters: P
) => Promise<T[]>

/** Where parameter `index` goes in a query built for `compileQuery`. */
export const parameterPlaceholder = (knex: Knex, index: number): Knex.Raw =>
  knex.raw('?', [`${MARKER}${index}`])

/** Compiles a query whose parameters are `parameterPlaceholder`s, for `runCompiled`. */
export const compileQuery = (query: Knex.QueryBuilder): CompiledQuery => {
  const native = query.toSQL().toNative()
  return {
    name: `keyward_${createHash('sha256').update(native.sql).digest('hex').slice(0, 24)}`,
    text: native.sql,
    bindings: native.bindings.map((binding) =>
      typeof binding === 'string' && binding.startsWith(MARKER)
        ? { parameter: Number(binding.slice(MARKER.length)) }
        : { value: binding },
    ),
  }
}

/** Runs a compiled query as a prepared statement on the request's connection. */
export const runCompiled = async <T>(
  em: EntityManager,
  compiled: CompiledQuery,
  parameters: readonly unknown[],
): Promise<T[]> => {
  const knex = em.getKnex()
  const values = compiled.bindings.map((binding) =>
    'parameter' in binding ? parameters[binding.parameter] : binding.value,
  )
  // The transaction's client hands out its own connection; the pool's lends one.
  const client = (em.getTransactionContext<Knex.Transaction>() ?? knex).client as {
    acquireConnection(): Promise<PgConnection>
    releaseConnection(connection: PgConnection): Promise<void>
    emit(event: 'query', data: { sql: string; bindings: unknown[] }): void
  }
  const connection = await client.acquireConnection()
  try {
    client.emit('query', { sql: compiled.text, bindings: values })
    const result = await connection.query({ name: compiled.name, text: compiled.text, values })
    return result.rows as T[]
  } finally {
    await client.releaseConnection(connection)
  }
}

/**
 * `build` receives the knex instance and one placeholder per parameter, to use where the value
 * goes (`.where('users.id', id)`); each parameter is a single value.
 */
export const preparedQuery = <T, P extends unknown[] = [string]>(
  arity: P['length'],
  build: (knex: Knex, ...placeholders: Knex.Raw[]) => Knex.QueryBuilder,
): PreparedQuery<P, T> => {
  let compiled: CompiledQuery | undefined
  return (em, ...parameters) => {
    const knex = em.getKnex()
    compiled ??= compileQuery(
      build(knex, ...Array.from({ length: arity }, (_, i) => parameterPlaceholder(knex, i))),
    )
    return runCompiled<T>(em, compiled, parameters)
  }
}
