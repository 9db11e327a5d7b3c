// What of a request or an error may reach the log. Paths of setup and recovery links carry
// tokens, and database errors quote statements and their values (tokens, keys): neither is
// logged as is.
import { failedStatementOf } from '../db/failed-statement.ts'
import { UUID_SOURCE } from '../uuid.ts'

const UUID_SEGMENT = new RegExp(UUID_SOURCE, 'gi')
const MAX_PATH = 200

/**
 * The route pattern when a route matched, else the path with every UUID masked (tokens are
 * UUIDs) and long segments cut, so nothing a client put in a link is kept.
 */
export const loggablePath = (routePath: string | undefined, path: string): string => {
  if (routePath) return routePath
  return path
    .replace(UUID_SEGMENT, '{uuid}')
    .split('/')
    .map((segment) => (segment.length > 64 ? '{long}' : segment))
    .join('/')
    .slice(0, MAX_PATH)
}

/**
 * The stack's frames without its first line: a database error's message (its first line, and
 * more when the statement spans lines) quotes the statement with its values.
 */
const framesOf = (error: Error): string | undefined => {
  const stack = error.stack
  if (!stack) return undefined
  const afterMessage = stack.startsWith(`${error.name}: ${error.message}`)
    ? stack.slice(error.name.length + 2 + error.message.length)
    : stack
  return afterMessage
    .split('\n')
    .filter((line) => line.trim().startsWith('at '))
    .join('\n')
}

/**
 * An unexpected error for the log. A database error keeps its class, SQL state, the statement
 * that failed with its placeholders (never its values) and the frames that sent it; its message,
 * which quotes the statement with the values in it, stays out.
 */
export const loggableError = (error: unknown) => {
  if (!(error instanceof Error)) return { type: typeof error }
  const sqlState =
    (error as { code?: unknown; sqlState?: unknown }).code ??
    (error as { sqlState?: unknown }).sqlState
  if (process.env.KW_DEBUG_ERRORS) return { type: error.name, message: error.message }
  const failed = failedStatementOf(error)
  if (failed || sqlState !== undefined || error.name.endsWith('Exception'))
    return {
      type: error.name,
      code: sqlState,
      ...(failed ? { statement: failed.statement, sentFrom: failed.stack } : {}),
      stack: framesOf(error),
    }
  return { type: error.name, message: error.message, stack: error.stack }
}
