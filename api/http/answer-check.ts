// Holds a route's answers to its declared response schema outside production: the JSON a client
// would receive (rows PostgreSQL built included) must validate, and must hold nothing the schema
// does not declare. Production skips it, so it costs nothing on the hot path; the tests, which
// run every route, are what keep handlers and schemas in step.
import { isDeepStrictEqual } from 'node:util'
import type { z } from 'zod'
import { JsonDocument, JsonRowStream, JsonRows } from '../envelope.ts'
import type { Route } from '../plugin.ts'

/** On unless `NODE_ENV=production`: development and tests check every answer. */
export const checksAnswers = () => process.env.NODE_ENV !== 'production'

export class AnswerMismatch extends Error {
  override name = 'AnswerMismatch'
}

/** The body as the client receives it: JSON text parsed back. */
const wireOf = (body: unknown): unknown =>
  body instanceof JsonRows
    ? body.rows.map((row) => JSON.parse(row))
    : body instanceof JsonDocument
      ? JSON.parse(body.text)
      : JSON.parse(JSON.stringify(body) ?? 'null')

/** Paths present in `sent` but dropped from `kept` (what the schema does not declare). */
const undeclared = (sent: unknown, kept: unknown, path: string, out: string[]) => {
  if (out.length >= 5) return
  if (Array.isArray(sent) && Array.isArray(kept)) {
    sent.forEach((item, index) => {
      undeclared(item, kept[index], `${path}[${index}]`, out)
    })
    return
  }
  if (sent && typeof sent === 'object' && kept && typeof kept === 'object') {
    for (const [key, value] of Object.entries(sent)) {
      if (!Object.hasOwn(kept, key)) out.push(`${path}.${key}`)
      else undeclared(value, (kept as Record<string, unknown>)[key], `${path}.${key}`, out)
    }
    return
  }
  if (!isDeepStrictEqual(sent, kept)) out.push(`${path} (changed by the schema)`)
}

/** Throws when the answer does not match the schema: a bug in the handler or the schema. */
export const checkAnswer = (route: Route, schema: z.ZodType, body: unknown): void => {
  const wire = wireOf(body)
  const parsed = schema.safeParse(wire)
  const where = `${route.method} ${route.path}`
  if (!parsed.success)
    throw new AnswerMismatch(
      `${where} answered outside its response schema: ${parsed.error.issues
        .slice(0, 5)
        .map((issue) => `body.${issue.path.join('.')} ${issue.message}`)
        .join('; ')}`,
    )
  const kept = JSON.parse(JSON.stringify(parsed.data) ?? 'null')
  if (isDeepStrictEqual(wire, kept)) return
  const paths: string[] = []
  undeclared(wire, kept, 'body', paths)
  throw new AnswerMismatch(
    `${where} answered fields its response schema does not declare: ${paths.join(', ')}`,
  )
}

/**
 * The same list, each batch held to the schema as it is read: an answer read as it is sent is
 * checked a batch at a time (a batch of the list validates as the list does). A mismatch cuts
 * the answer, which has started.
 */
export const checkedRows = (route: Route, schema: z.ZodType, body: JsonRowStream): JsonRowStream =>
  new JsonRowStream({
    next: async () => {
      const rows = await body.batches.next()
      if (Buffer.isBuffer(rows)) checkAnswer(route, schema, JSON.parse(`[${rows}]`))
      else if (rows.length > 0) checkAnswer(route, schema, new JsonRows(rows))
      return rows
    },
    sent: (batch) => body.batches.sent?.(batch),
    close: () => body.batches.close(),
  })
