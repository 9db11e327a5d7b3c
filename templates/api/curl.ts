// The `curl` command of an operation: its path with example parameters, the credentials its
// security asks for (a bearer token when it takes one, else the cookie session and its CSRF
// token), and its example body. The server and credentials are shell variables the reader sets.
import type { Operation } from '../../model/openapi.ts'

/** Single-quoted for POSIX shells. */
const quote = (text: string) => `'${text.replace(/'/g, `'\\''`)}'`

export const CURL_VARIABLES = {
  server: 'KEYWARD_URL',
  token: 'KEYWARD_TOKEN',
  session: 'KEYWARD_SESSION',
  csrf: 'KEYWARD_CSRF',
} as const

const pathWithExamples = (path: string, operation: Operation) =>
  path.replace(/\{([^}]+)\}/g, (whole, name: string) => {
    const parameter = operation.parameters?.find((p) => p.in === 'path' && p.name === name)
    return parameter?.example === undefined ? whole : encodeURIComponent(String(parameter.example))
  })

export const curlCommand = (method: string, path: string, operation: Operation): string => {
  const lines = [
    `curl -sS${method === 'get' ? '' : ` -X ${method.toUpperCase()}`} "$${CURL_VARIABLES.server}${pathWithExamples(path, operation)}"`,
  ]
  const security = operation.security ?? []
  if (security.some((requirement) => 'jwt' in requirement))
    lines.push(`-H "Authorization: Bearer $${CURL_VARIABLES.token}"`)
  else if (security.some((requirement) => 'gpgAuth' in requirement)) {
    lines.push(
      `-b "passbolt_session=$${CURL_VARIABLES.session}; csrfToken=$${CURL_VARIABLES.csrf}"`,
    )
    if (security.some((requirement) => 'csrfToken' in requirement))
      lines.push(`-H "X-CSRF-Token: $${CURL_VARIABLES.csrf}"`)
  }
  const body = operation.requestBody?.content['application/json']
  if (body) {
    lines.push('-H "Content-Type: application/json"')
    lines.push(`--data ${quote(JSON.stringify(body.example ?? {}))}`)
  }
  return lines.join(' \\\n  ')
}
