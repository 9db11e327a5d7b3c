// What of a request or an error may reach the log. Paths of setup and recovery links carry
// tokens, and database errors quote statements and their values (tokens, keys): neither is
// logged as is.
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

/** An unexpected error for the log: database errors keep only their class and SQL state. */
export const loggableError = (error: unknown) => {
  if (!(error instanceof Error)) return { type: typeof error }
  const sqlState =
    (error as { code?: unknown; sqlState?: unknown }).code ??
    (error as { sqlState?: unknown }).sqlState
  if (process.env.KW_DEBUG_ERRORS) return { type: error.name, message: error.message }
  if (sqlState !== undefined || error.name.endsWith('Exception'))
    return { type: error.name, code: sqlState }
  return { type: error.name, message: error.message, stack: error.stack }
}
