// The hosting guide's Caddyfile, as printed on the HTTPS guide's Caddy page, run with Debian's Caddy in front
// of a real server (with the test's certificate instead of one from an ACME authority): HSTS,
// HTTP redirected, the body limit, the public app URL, and clients' addresses and scheme
// believed from Caddy alone.
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import test from 'ava'
import {
  checkProxiedApi,
  findProgram,
  guideBlock,
  httpsRequest,
  startProxiedApi,
  startProxy,
} from '../helpers/reverse-proxy.ts'

test("the guide's Caddyfile terminates TLS in front of Keyward, with HSTS, the public app URL and forwarded clients", async (t) => {
  t.timeout(300_000)
  // .ci/run installs Debian's caddy when it is missing.
  const caddy = findProgram('caddy')
  if (!caddy) return t.fail('caddy is not installed (.ci/run installs it)')
  const api = await startProxiedApi(t, 'caddy')
  const { dir, cert } = api
  const guide = guideBlock('hosting/configure/https/caddy.md', 'caddyfile')
  const site = guide
    .replace(
      'vault.example.com {',
      `https://127.0.0.1:${api.httpsPort} {\n    tls ${cert.cert} ${cert.key}`,
    )
    .replace('reverse_proxy 127.0.0.1:8080', `reverse_proxy 127.0.0.1:${api.apiPort}`)
  t.not(site, guide)
  const conf = join(dir, 'Caddyfile')
  // No admin endpoint, the test's ports, and every file Caddy keeps inside the test's folder.
  writeFileSync(
    conf,
    `{
    admin off
    http_port ${api.httpPort}
    https_port ${api.httpsPort}
    storage file_system ${dir}/storage
    skip_install_trust
}
${site}`,
  )
  const env = {
    PATH: process.env.PATH,
    HOME: dir,
    XDG_DATA_HOME: join(dir, 'data'),
    XDG_CONFIG_HOME: join(dir, 'config'),
  }
  const status = await startProxy(
    t,
    caddy,
    ['run', '--config', conf, '--adapter', 'caddyfile'],
    () => httpsRequest(`${api.publicUrl}healthcheck/status.json`, { ca: cert.pem }),
    { env },
  )
  if (!status) return
  // Plain HTTP is sent to HTTPS by Caddy's automatic redirect.
  const plain = await fetch(`http://127.0.0.1:${api.httpPort}/auth/login`, { redirect: 'manual' })
  t.is(plain.status, 308)
  t.regex(plain.headers.get('location') ?? '', /^https:\/\/127\.0\.0\.1(:\d+)?\/auth\/login$/)
  await checkProxiedApi(t, api, status)
})
