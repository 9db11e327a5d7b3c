// JSON documents written by PostgreSQL as text, piece by piece, for long lists: PostgreSQL 15's
// json_build_object works out how to write each of its arguments on every call, which on tens
// of thousands of rows costs more than concatenating text (about half the time, measured on the
// resources list). Strings still go through to_json, which escapes them.
import type { Knex } from '@mikro-orm/postgresql'

type Sql = Knex.Raw | Knex.Ref<string, Record<string, string>>

/**
 * One value of a document: SQL whose text is JSON, never SQL null (`quoted` values are SQL text
 * that is never null and needs no escaping, written between the quotes the document's own text
 * puts around them, one concatenation less each), or a constant written into the document's
 * own text.
 */
export type JsonText = { sql: Sql; quoted?: true } | { constant: string }

/** A SQL string literal, written so that the query builder leaves its `?` alone. */
const literal = (text: string) => `'${text.replaceAll("'", "''").replaceAll('?', '\\?')}'`

/** Any text, escaped; null when SQL null. */
export const jsonString = (knex: Knex, value: Sql): JsonText => ({
  sql: knex.raw(`coalesce(to_json(?)::text, 'null')`, [value]),
})

/**
 * A value whose text needs no escaping (a uuid, a date as `isoDate` writes it): a JSON string,
 * or null when SQL null. `notNull` values are written between the document's own quotes.
 */
export const jsonPlainString = (
  knex: Knex,
  value: Sql,
  options: { notNull?: boolean } = {},
): JsonText =>
  options.notNull
    ? { sql: knex.raw('(?)::text', [value]), quoted: true }
    : { sql: knex.raw(`coalesce('"' || (?)::text || '"', 'null')`, [value]) }

/** A boolean or a number, or null when SQL null. */
export const jsonLiteral = (
  knex: Knex,
  value: Sql,
  options: { notNull?: boolean } = {},
): JsonText => ({
  sql: options.notNull
    ? knex.raw('(?)::text', [value])
    : knex.raw(`coalesce((?)::text, 'null')`, [value]),
})

/** A value known when the statement is built. */
export const jsonConstant = (value: string | number | boolean): JsonText => ({
  constant: JSON.stringify(value),
})

/** JSON text computed by SQL, never null (a nested document, a list). */
export const jsonRaw = (sql: Sql): JsonText => ({ sql })

/** The object of these fields, in this order, as one text expression. */
export const jsonObjectText = (knex: Knex, fields: [string, JsonText][]): Knex.Raw => {
  const parts: string[] = []
  const bindings: Sql[] = []
  let pending = '{'
  fields.forEach(([key, value], index) => {
    pending += `${index === 0 ? '' : ','}${JSON.stringify(key)}:`
    if ('constant' in value) {
      pending += value.constant
      return
    }
    if (value.quoted) pending += '"'
    parts.push(literal(pending), '?')
    bindings.push(value.sql)
    pending = value.quoted ? '"' : ''
  })
  parts.push(literal(`${pending}}`))
  return knex.raw(`(${parts.join(' || ')})`, bindings)
}
