// The hosting guide's nginx configuration, as printed on the HTTPS guide's nginx page, run with Debian's
// nginx in front of a real server: TLS and HSTS from nginx, HTTP redirected, the app URL the
// server announces is the public HTTPS one, and the clients' addresses and scheme believed
// from nginx alone.
import { chmodSync, mkdirSync, writeFileSync } from 'node:fs'
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

test("the guide's nginx configuration terminates TLS in front of Keyward, with HSTS, the public app URL and forwarded clients", async (t) => {
  t.timeout(300_000)
  // .ci/run installs Debian's nginx when it is missing.
  const nginx = findProgram('nginx')
  if (!nginx) return t.fail('nginx is not installed (.ci/run installs it)')
  const api = await startProxiedApi(t, 'nginx')
  const { dir, cert } = api
  const guide = guideBlock('hosting/configure/https/nginx.md', 'nginx')
  const server = guide
    .replaceAll('/etc/letsencrypt/live/vault.example.com/fullchain.pem', cert.cert)
    .replaceAll('/etc/letsencrypt/live/vault.example.com/privkey.pem', cert.key)
    .replace('listen 443 ssl http2;', `listen 127.0.0.1:${api.httpsPort} ssl http2;`)
    .replace('listen 80;', `listen 127.0.0.1:${api.httpPort};`)
    .replace('http://127.0.0.1:8080', `http://127.0.0.1:${api.apiPort}`)
  t.not(server, guide)
  // Started as root, nginx's workers run as nobody: they must reach the folders where they
  // buffer request and response bodies.
  chmodSync(dir, 0o755)
  for (const folder of ['body', 'proxy', 'logs']) {
    mkdirSync(join(dir, folder))
    chmodSync(join(dir, folder), 0o777)
  }
  const conf = join(dir, 'nginx.conf')
  writeFileSync(
    conf,
    `daemon off;
pid ${dir}/nginx.pid;
error_log ${dir}/logs/error.log warn;
events {}
http {
  access_log off;
  client_body_temp_path ${dir}/body;
  proxy_temp_path ${dir}/proxy;
  fastcgi_temp_path ${dir}/proxy;
  uwsgi_temp_path ${dir}/proxy;
  scgi_temp_path ${dir}/proxy;
${server}
}
`,
  )
  const status = await startProxy(
    t,
    nginx,
    ['-c', conf, '-p', dir],
    () => httpsRequest(`${api.publicUrl}healthcheck/status.json`, { ca: cert.pem }),
    { stopSignal: 'SIGQUIT' },
  )
  if (!status) return
  // Plain HTTP is sent to HTTPS.
  const plain = await fetch(`http://127.0.0.1:${api.httpPort}/auth/login`, { redirect: 'manual' })
  t.is(plain.status, 301)
  t.regex(plain.headers.get('location') ?? '', /^https:\/\/127\.0\.0\.1\/auth\/login$/)
  await checkProxiedApi(t, api, status)
})
