// Real reverse proxies (Debian's nginx and Caddy) in front of a test server, as the hosting
// guide configures them, and HTTPS requests to them from a chosen loopback address.
import { type ChildProcess, execFileSync, spawn } from 'node:child_process'
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { request } from 'node:https'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { ExecutionContext } from 'ava'
import { startTestApi } from './api.ts'
import { makeCertificate, type TestCertificate } from './certificates.ts'
import { freePort } from './extension.ts'

export interface Answer {
  status: number
  headers: Record<string, string | string[] | undefined>
  body: string
}

export interface HttpsOptions {
  ca: string
  headers?: Record<string, string>
  method?: string
  body?: Buffer | string
  /** The client's own address; 127.0.0.0/8 is all loopback on Linux. */
  from?: string
}

export const httpsRequest = (url: string, options: HttpsOptions) =>
  new Promise<Answer>((resolve, reject) => {
    const req = request(
      url,
      {
        ca: options.ca,
        method: options.method ?? 'GET',
        headers: options.headers,
        localAddress: options.from,
        agent: false,
      },
      (res) => {
        let body = ''
        res.on('data', (chunk) => {
          body += chunk
        })
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }))
      },
    )
    req.once('error', reject)
    req.end(options.body)
  })

/** The first fenced block of `language` on a page of the manual. */
export const guideBlock = (page: string, language: string) => {
  const text = readFileSync(new URL(`../../content/docs/${page}`, import.meta.url), 'utf8')
  const block = new RegExp(`\`\`\`${language}[^\\n]*\\n([\\s\\S]*?)\`\`\``).exec(text)?.[1]
  if (!block) throw new Error(`${page} has no ${language} block`)
  return block
}

/** A Debian program, found in the sbin folders a user's PATH may lack. */
export const findProgram = (name: string): string | undefined => {
  for (const dir of ['/usr/sbin', '/usr/bin', '/usr/local/bin'])
    if (existsSync(`${dir}/${name}`)) return `${dir}/${name}`
  try {
    return (
      execFileSync('sh', ['-c', `command -v ${name}`], { encoding: 'utf8' }).trim() || undefined
    )
  } catch {
    return undefined
  }
}

/**
 * Starts a proxy process (stopped at teardown with `stopSignal`) and waits until `probe`
 * answers through it; fails the test with the proxy's output otherwise.
 */
export const startProxy = async (
  t: ExecutionContext,
  command: string,
  args: string[],
  probe: () => Promise<Answer>,
  options: { env?: NodeJS.ProcessEnv; stopSignal?: NodeJS.Signals } = {},
): Promise<Answer | undefined> => {
  const child: ChildProcess = spawn(command, args, {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: options.env ?? process.env,
  })
  let output = ''
  const collect = (chunk: Buffer) => {
    output += chunk
  }
  child.stdout?.on('data', collect)
  child.stderr?.on('data', collect)
  t.teardown(() => {
    if (child.exitCode === null) child.kill(options.stopSignal ?? 'SIGTERM')
  })
  const deadline = Date.now() + 30_000
  for (;;) {
    const answer = await probe().catch(() => undefined)
    if (answer) return answer
    if (Date.now() > deadline || child.exitCode !== null) break
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
  t.fail(`${command} did not answer: ${output}`)
  return undefined
}

/** The only client the metrics allow-list names; the proxies connect from 127.0.0.1. */
export const ALLOWED_CLIENT = '127.0.0.5'

export interface ProxiedApi {
  /** The test's folder, removed at teardown. */
  dir: string
  cert: TestCertificate
  httpsPort: number
  httpPort: number
  /** The proxy's HTTPS address, which the server announces as its app URL. */
  publicUrl: string
  /** The server's own port on 127.0.0.1, where the proxy forwards to. */
  apiPort: string
}

/** A server that trusts a proxy on 127.0.0.1, and what that proxy needs: ports, a certificate. */
export const startProxiedApi = async (t: ExecutionContext, name: string): Promise<ProxiedApi> => {
  const dir = mkdtempSync(join(tmpdir(), `keyward-${name}-`))
  t.teardown(() => rmSync(dir, { recursive: true, force: true }))
  const cert = makeCertificate(dir, 'vault')
  const [httpsPort, httpPort] = [await freePort(), await freePort()]
  const publicUrl = `https://127.0.0.1:${httpsPort}/`
  const api = await startTestApi(t, {
    env: {
      KEYWARD_APP_URL: publicUrl,
      KEYWARD_TRUSTED_PROXIES: '127.0.0.1',
      KEYWARD_METRICS_ALLOW_FROM: ALLOWED_CLIENT,
    },
  })
  return { dir, cert, httpsPort, httpPort, publicUrl, apiPort: new URL(api.url).port }
}

/**
 * What every guide configuration must give, checked through the running proxy once `status`
 * (the probe's answer) came back: HSTS, the public app URL, forwarded clients, the body limit.
 */
export const checkProxiedApi = async (t: ExecutionContext, api: ProxiedApi, status: Answer) => {
  t.is(status.status, 200)
  t.is(JSON.parse(status.body).body, 'OK')
  t.is(status.headers['strict-transport-security'], 'max-age=63072000')
  // The address the server gives the clients is the public one, not its own port.
  const settings = await httpsRequest(`${api.publicUrl}settings.json`, { ca: api.cert.pem })
  t.is(settings.status, 200)
  t.is(JSON.parse(settings.body).body.app.url, api.publicUrl)
  await checkForwardedClient(t, api.publicUrl, api.cert.pem, ALLOWED_CLIENT)
  // A body over the server's limit (5 MiB) but under the proxy's (a little above it) reaches the
  // server, whose 413 comes back through the proxy in the passbolt envelope.
  const big = await httpsRequest(`${api.publicUrl}auth/login.json`, {
    ca: api.cert.pem,
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: Buffer.alloc(5.5 * 1024 * 1024, 0x20),
  })
  t.is(big.status, 413)
  t.is(JSON.parse(big.body).header.message, 'The request body is too large.')
}

/** What the server sees of clients through a proxy that a configuration trusts. */
const checkForwardedClient = async (
  t: ExecutionContext,
  publicUrl: string,
  ca: string,
  allowedClient: string,
) => {
  // The metrics allow-list names one client: it reads through the proxy, and a neighbour
  // writing that client's address into X-Forwarded-For does not.
  const metrics = (from: string, forged?: string) =>
    httpsRequest(`${publicUrl}metrics`, {
      ca,
      from,
      headers: forged ? { 'x-forwarded-for': forged } : {},
    })
  t.is((await metrics(allowedClient)).status, 200)
  t.is((await metrics('127.0.0.6', allowedClient)).status, 404)
  t.is((await metrics(allowedClient, '127.0.0.6')).status, 200)
  // The proxy's TLS is the client's: cookies are Secure although the server speaks plain HTTP.
  const page = await httpsRequest(`${publicUrl}auth/login`, { ca, from: allowedClient })
  t.is(page.status, 200)
  const cookies = ([] as string[]).concat(page.headers['set-cookie'] ?? [])
  t.regex(cookies.find((cookie) => cookie.startsWith('csrfToken=')) ?? '', /; secure/i)
}
