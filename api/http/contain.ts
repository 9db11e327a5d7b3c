// Runs a route's contain loaders on its answer: each requested relation is loaded once for all
// the rows, in the order the route declares them (so `permissions.user.profile` finds the
// permissions `permissions` loaded).
import { JsonDocument, JsonRowStream, JsonRows } from '../envelope.ts'
import type { ContainContext, Route } from '../plugin.ts'

/** The rows of an answer: the list itself, or the single object. */
const rowsOf = (body: unknown): Record<string, unknown>[] => {
  // Rows written as JSON by PostgreSQL are completed by their handler.
  if (body instanceof JsonRows || body instanceof JsonRowStream || body instanceof JsonDocument)
    return []
  if (Array.isArray(body)) return body
  if (body && typeof body === 'object') return [body as Record<string, unknown>]
  return []
}

export const loadContains = async (
  route: Route,
  body: unknown,
  context: ContainContext,
): Promise<void> => {
  const declared = route.query?.contain
  if (!declared) return
  const rows = rowsOf(body)
  if (rows.length === 0) return
  for (const [name, spec] of Object.entries(declared))
    if (spec.load && context.contain[name]) await spec.load(rows, context)
}
