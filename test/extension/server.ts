// The server an extension scenario drives: Keyward in process with every plugin, on a fresh
// database, behind the TLS front the browser reaches it through (the extension wants HTTPS).
import type { ExecutionContext } from 'ava'
import { plugins } from '../../plugins/index.ts'
import { startTestApi } from '../helpers/api.ts'
import { createTestDatabase } from '../helpers/database.ts'
import { freePort } from '../helpers/extension.ts'
import { startTlsProxy } from '../helpers/tls-proxy.ts'

/** Starts the server; `domain` is the HTTPS origin the browser opens. */
export const startServerForExtension = async (
  t: ExecutionContext,
  env: Record<string, string> = {},
) => {
  const port = await freePort()
  const databaseUrl = await createTestDatabase(t)
  const domain = await startTlsProxy(t, await freePort(), () => port)
  const api = await startTestApi(t, {
    plugins,
    databaseUrl,
    env: { KEYWARD_PORT: String(port), KEYWARD_APP_URL: `${domain}/`, ...env },
  })
  return { api, domain }
}
