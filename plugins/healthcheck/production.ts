// The checks an administrator runs before going live (`api healthcheck`): HTTPS and its
// certificate, the public address, the server key, mail delivery, the clock, migrations and the
// data folder's free space.
import { createPrivateKey, X509Certificate } from 'node:crypto'
import { existsSync, statfsSync } from 'node:fs'
import { isIP } from 'node:net'
import { dirname } from 'node:path'
import type { EntityManager } from '@mikro-orm/postgresql'
import type { AppContext } from '../../api/app.ts'
import { migrationStatus, selectSql } from '../../api/orm.ts'
import { readTlsFiles } from '../../api/server.ts'
import type { Check } from './service.ts'

const DAY = 24 * 3600 * 1000
/** Below this the data folder (the embedded database, outbox, keys) is about to fill. */
export const DISK_ERROR_BYTES = 256 * 1024 ** 2
export const DISK_WARNING_BYTES = 2 * 1024 ** 3
/** Sign-in tokens, one-time passwords and sessions all compare times with the database's. */
export const CLOCK_SKEW_MS = 5_000

type MakeCheck = (
  domain: string,
  name: string,
  ok: boolean,
  description: string,
  level?: Check['level'],
) => Check

const mib = (bytes: number) => `${Math.floor(bytes / 1024 ** 2)} MiB`

/** The certificate the server serves itself, when it does. */
const certificateChecks = (app: AppContext, check: MakeCheck): Check[] => {
  const { tlsCert, tlsKey, appUrl } = app.config
  if (!tlsCert || !tlsKey) return []
  let files: ReturnType<typeof readTlsFiles>
  try {
    files = readTlsFiles({ cert: tlsCert, key: tlsKey })
  } catch (error) {
    return [check('ssl', 'certificate', false, (error as Error).message)]
  }
  let certificate: X509Certificate
  try {
    certificate = new X509Certificate(files.cert)
  } catch (error) {
    return [check('ssl', 'certificate', false, `${tlsCert}: ${(error as Error).message}`)]
  }
  const host = new URL(appUrl).hostname.replace(/^\[|\]$/g, '')
  const covers = isIP(host) ? certificate.checkIP(host) : certificate.checkHost(host)
  const expires = new Date(certificate.validTo)
  const left = expires.getTime() - Date.now()
  let matchesKey = false
  try {
    matchesKey = certificate.checkPrivateKey(createPrivateKey(files.key))
  } catch {
    // Not a key openssl can read: reported as not matching.
  }
  return [
    check('ssl', 'certificateKey', matchesKey, `${tlsKey} is the private key of ${tlsCert}`),
    check(
      'ssl',
      'certificateValid',
      left > 0 && new Date(certificate.validFrom).getTime() <= Date.now(),
      `the certificate is valid now (until ${expires.toISOString()})`,
    ),
    check(
      'ssl',
      'certificateRenewal',
      left > 14 * DAY,
      `the certificate has more than 14 days left (${Math.max(0, Math.floor(left / DAY))})`,
      'warning',
    ),
    check('ssl', 'certificateHost', Boolean(covers), `the certificate covers ${host}`),
  ]
}

const reachable = async (appUrl: string) => {
  try {
    const response = await fetch(new URL('healthcheck/status.json', appUrl), {
      signal: AbortSignal.timeout(3_000),
    })
    return response.ok ? 'answers' : `answers ${response.status}`
  } catch (error) {
    const cause = (error as { cause?: { code?: string; message?: string } }).cause
    return `does not answer (${cause?.code ?? cause?.message ?? (error as Error).message})`
  }
}

const databaseClockSkew = async (em: EntityManager) => {
  const sent = Date.now()
  const [{ now }] = await selectSql<{ now: string }>(em, 'select now()::text as now', {})
  const received = Date.now()
  return new Date(now).getTime() - (sent + received) / 2
}

export interface ProductionCheckOptions {
  /** Send a test mail to this address through the configured transport. */
  sendTestMail?: string
}

export const productionChecks = async (
  app: AppContext,
  em: EntityManager,
  check: MakeCheck,
  options: ProductionCheckOptions = {},
): Promise<Check[]> => {
  const { config } = app
  const url = new URL(config.appUrl)
  const checks: Check[] = [...certificateChecks(app, check)]

  const answer = await reachable(config.appUrl)
  checks.push(
    check(
      'core',
      'fullBaseUrlReachable',
      answer === 'answers',
      `the app url ${config.appUrl} ${answer}`,
      'warning',
    ),
  )
  checks.push(
    check(
      'ssl',
      'notLocalhost',
      !['localhost', '127.0.0.1', '[::1]'].includes(url.hostname),
      `the app url names a host clients can reach (${url.hostname})`,
      'warning',
    ),
  )

  checks.push(
    check(
      'gpg',
      'gpgKeyFingerprint',
      app.serverKey.privateKey.getFingerprint().toUpperCase() === app.serverKey.fingerprint,
      `server key fingerprint ${app.serverKey.fingerprint.replace(/(.{4})/g, '$1 ').trim()}`,
    ),
  )

  try {
    const skew = await databaseClockSkew(em)
    checks.push(
      check(
        'environment',
        'clock',
        Math.abs(skew) <= CLOCK_SKEW_MS,
        `this host's clock and the database's agree within ${CLOCK_SKEW_MS / 1000} s (${(skew / 1000).toFixed(1)} s apart)`,
      ),
    )
  } catch (error) {
    checks.push(
      check('environment', 'clock', false, `the database clock: ${(error as Error).message}`),
    )
  }

  try {
    const { applied, pending } = await migrationStatus(app.orm)
    checks.push(
      check(
        'database',
        'migrations',
        pending.length === 0,
        pending.length
          ? `${pending.length} migration(s) pending (${pending.join(', ')}): run \`api migrate\``
          : `every migration applied (${applied.length})`,
      ),
    )
  } catch (error) {
    checks.push(check('database', 'migrations', false, `migrations: ${(error as Error).message}`))
  }

  try {
    // With an external database the folder may not exist yet: its disk is its parent's.
    let where = config.dataDir
    while (!existsSync(where) && dirname(where) !== where) where = dirname(where)
    const stats = statfsSync(where)
    const free = stats.bavail * stats.bsize
    checks.push(
      check(
        'environment',
        'diskSpace',
        free >= DISK_ERROR_BYTES,
        `${mib(free)} free for the data folder ${config.dataDir}`,
      ),
      check(
        'environment',
        'diskSpaceLow',
        free >= DISK_WARNING_BYTES,
        `more than ${mib(DISK_WARNING_BYTES)} free for the data folder`,
        'warning',
      ),
    )
  } catch (error) {
    checks.push(
      check(
        'environment',
        'diskSpace',
        false,
        `data folder ${config.dataDir}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`,
      ),
    )
  }

  // SMTP settings an administrator saved win over both.
  const transport = config.smtpUrl
    ? 'the mailer (saved SMTP settings, else KEYWARD_SMTP_URL)'
    : 'the mailer (saved SMTP settings, else the outbox folder: no KEYWARD_SMTP_URL)'
  if (options.sendTestMail) {
    try {
      await app.mailer.sendNow({
        to: options.sendTestMail,
        subject: 'Keyward test mail',
        text: `This mail was sent by \`api healthcheck --send-test-mail\` on ${config.appUrl}. Mail delivery works.`,
      })
      checks.push(
        check(
          'smtpSettings',
          'testMail',
          true,
          `a test mail to ${options.sendTestMail} was handed to ${transport}`,
        ),
      )
    } catch (error) {
      checks.push(
        check(
          'smtpSettings',
          'testMail',
          false,
          `the test mail to ${options.sendTestMail} failed: ${(error as Error).message}`,
        ),
      )
    }
  } else
    checks.push(
      check(
        'smtpSettings',
        'transport',
        Boolean(config.smtpUrl),
        `mail goes to ${transport}; try it with --send-test-mail ADDRESS`,
        'warning',
      ),
    )
  return checks
}
