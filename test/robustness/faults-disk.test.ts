// Fault injection, the disk: the data folder on a small tmpfs that is full when the server makes
// its key on first start. The start stops with one plain line naming the file and the cause,
// leaves no truncated key behind, and succeeds once there is room again.
import { execFileSync, spawn } from 'node:child_process'
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import test from 'ava'
import * as openpgp from 'openpgp'
import { JWT_KEY } from '../helpers/api.ts'
import { createTestDatabase } from '../helpers/database.ts'
import { freePort } from '../helpers/extension.ts'

const BIN = fileURLToPath(new URL('../../bin/api.js', import.meta.url))

// Mounting a tmpfs needs root, as CI runs.
const asRoot = process.getuid?.() === 0 ? test : test.skip

asRoot('a full data disk stops the first start plainly, with no corrupt key file', async (t) => {
  t.timeout(300_000)
  const dataDir = mkdtempSync(join(tmpdir(), 'keyward-full-'))
  execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=256k', 'tmpfs', dataDir])
  t.teardown(() => {
    execFileSync('umount', ['-l', dataDir])
    rmSync(dataDir, { recursive: true, force: true })
  })
  // Fill it: the write stops at the size limit.
  const filler = join(dataDir, 'filler')
  try {
    writeFileSync(filler, Buffer.alloc(512 * 1024))
  } catch {
    // ENOSPC: the disk is full, as intended.
  }
  const port = await freePort()
  const env = {
    ...process.env,
    DATABASE_URL: await createTestDatabase(t),
    KEYWARD_DATA_DIR: dataDir,
    KEYWARD_JWT_PRIVATE_KEY: JWT_KEY.privatePath,
    KEYWARD_JWT_PUBLIC_KEY: JWT_KEY.publicPath,
    KEYWARD_PORT: String(port),
  }
  const run = () =>
    new Promise<{ code: number | null; stderr: string }>((resolve) => {
      const child = spawn(process.execPath, [BIN, 'start'], {
        env,
        stdio: ['ignore', 'ignore', 'pipe'],
      })
      let stderr = ''
      child.stderr.on('data', (chunk) => {
        stderr += chunk
      })
      let stopping = false
      const timer = setInterval(async () => {
        const ready = await fetch(`http://127.0.0.1:${port}/healthcheck/status.json`).then(
          (r) => r.ok,
          () => false,
        )
        // One signal: a second one during the graceful stop ends the process at once.
        if (ready && !stopping) {
          stopping = true
          clearInterval(timer)
          child.kill('SIGTERM')
        }
      }, 300)
      child.on('exit', (code) => {
        clearInterval(timer)
        resolve({ code, stderr })
      })
    })
  const full = await run()
  t.is(full.code, 1)
  t.regex(full.stderr, /Could not write .*serverkey_private\.asc: no space left on the device\./)
  t.notRegex(full.stderr, /\n\s+at /, 'no stack trace')
  const gpg = join(dataDir, 'gpg')
  t.deepEqual(existsSync(gpg) ? readdirSync(gpg) : [], [], 'no key file, whole or partial')

  rmSync(filler)
  const roomy = await run()
  t.is(roomy.code, 0, roomy.stderr)
  const key = await openpgp.readPrivateKey({
    armoredKey: readFileSync(join(gpg, 'serverkey_private.asc'), 'utf8'),
  })
  t.true(key.isPrivate())
  t.deepEqual(readdirSync(gpg).sort(), ['serverkey.asc', 'serverkey_private.asc'])
})
