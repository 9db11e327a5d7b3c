// What every answer must be, whatever was sent: below 500, the passbolt envelope for errors
// (and for JSON answers that carry a header), never a stack trace or a database message.

export interface Answer {
  status: number
  headers: Headers
  text: string
}

const STACK = /\n\s+at [^\n]*:\d+:\d+|node_modules\/|\/api\/[\w/-]+\.ts\b|\/plugins\/[\w/-]+\.ts\b/
const DATABASE =
  /SQLSTATE|syntax error at or near|violates (foreign key|unique|check|not-null) constraint|relation "[^"]+" does not exist|column "[^"]+" (of relation|does not exist)|\b(insert into|delete from) "|\bselect [^\n]{0,200}\bfrom "|Exception:|knex|mikro-?orm/i

/** What is wrong with an answer; empty when nothing is. */
export const problemsOf = (answer: Answer): string[] => {
  const problems: string[] = []
  if (answer.status >= 500) problems.push(`answered ${answer.status}`)
  const type = answer.headers.get('content-type') ?? ''
  let json: unknown
  if (type.includes('application/json')) {
    try {
      json = JSON.parse(answer.text)
    } catch {
      problems.push('a JSON answer that does not parse')
    }
  }
  const header = (json as { header?: Record<string, unknown> } | undefined)?.header
  if (answer.status >= 400) {
    if (!header) problems.push('an error outside the envelope')
    else {
      if (header.status !== 'error') problems.push(`header.status is ${String(header.status)}`)
      if (header.code !== answer.status)
        problems.push(`header.code ${String(header.code)} is not the status`)
      if (typeof header.message !== 'string') problems.push('no header.message')
      if (!('body' in (json as object))) problems.push('no body in the envelope')
    }
    if (DATABASE.test(answer.text)) problems.push('a database message in the answer')
  }
  if (header && answer.headers.get('cache-control') !== 'no-store')
    problems.push('an envelope without Cache-Control: no-store')
  if (STACK.test(answer.text)) problems.push('a stack trace or source path in the answer')
  return problems
}
