// Server configuration from environment variables and an optional JSON file, validated once at
// start: one line per bad value, naming the variable or the file's field.
import { existsSync, readFileSync } from 'node:fs'
import { isIP } from 'node:net'
import { resolve } from 'node:path'
import { z } from 'zod'

const bytes = z
  .string()
  .regex(/^\d+(kb|mb)?$/i, 'a size such as 5mb, 512kb or 1048576')
  .transform((v) => {
    const n = Number.parseInt(v, 10)
    return /kb$/i.test(v) ? n * 1024 : /mb$/i.test(v) ? n * 1024 * 1024 : n
  })

const port = z.coerce.number().int().min(0).max(65535)

const addressList = z.array(
  z.string().refine((entry) => {
    const [ip, bits, extra] = entry.split('/')
    const version = isIP(ip)
    if (!version || extra !== undefined) return false
    if (bits === undefined) return true
    const n = Number(bits)
    return /^\d+$/.test(bits) && n <= (version === 4 ? 32 : 128)
  }, 'addresses or CIDR ranges, such as 127.0.0.1,10.0.0.0/8,::1'),
)

/** Fields given as comma lists in environment variables. */
const LIST_FIELDS = new Set(['disabledPlugins', 'metricsAllowFrom', 'trustedProxies'])

export const configSchema = z.strictObject({
  host: z.string().min(1).default('127.0.0.1'),
  port: port.default(8080),
  /** Public address of the server, as clients reach it. @default http://<host>:<port>/ */
  appUrl: z.url().optional(),
  /** PostgreSQL connection; without it an embedded PostgreSQL runs under `dataDir`. */
  databaseUrl: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'a postgres:// URL')
    .optional(),
  dataDir: z.string().min(1).default('.data'),
  embeddedPostgresPort: port.default(54329),
  logLevel: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  bodyLimit: bytes.default(5 * 1024 * 1024),
  /** Largest avatar image accepted, as uploaded (before it is resized). */
  avatarMaxSize: bytes.default(5 * 1024 * 1024),
  disabledPlugins: z.array(z.string().min(1)).default([]),
  /** Armored server key files; generated under `<dataDir>/gpg/` on first start when absent. */
  serverKeyPrivate: z.string().min(1).optional(),
  serverKeyPublic: z.string().min(1).optional(),
  locale: z.string().min(2).default('en-UK'),
  privacyPolicyUrl: z.url().or(z.literal('')).default(''),
  termsUrl: z.url().or(z.literal('')).default(''),
  /** Minutes of inactivity before a session ends. */
  sessionTimeout: z.coerce.number().int().min(1).max(10_080).default(24),
  /** SMTP server, `smtp://user:pass@host:587` or `smtps://…`; unset writes mail to `<dataDir>/outbox/`. */
  smtpUrl: z
    .string()
    .regex(/^smtps?:\/\//, 'an smtp:// or smtps:// URL')
    .optional(),
  mailFrom: z.string().min(3).default('Keyward <no-reply@localhost>'),
  /** PEM files of the JWT signing key pair (RSA 4096); generated under `<dataDir>/jwt/` when absent. */
  jwtPrivateKey: z.string().min(1).optional(),
  jwtPublicKey: z.string().min(1).optional(),
  /** Failed attempts a minute on the sign-in, JWT, MFA and setup routes, per account. */
  authRateLimit: z.coerce.number().int().min(1).max(100_000).default(30),
  /** Failed attempts a minute on those routes per client address, whatever the account. */
  authRateLimitPerAddress: z.coerce.number().int().min(1).max(1_000_000).default(300),
  /** Seconds a client has to send a whole request (headers and body); slower ones are cut off. */
  requestTimeout: z.coerce.number().int().min(1).max(3600).default(30),
  /** Failed one-time passwords allowed since the last sign-in before the user is signed out. */
  mfaMaxAttempts: z.coerce.number().int().min(1).max(100).default(4),
  /** Addresses and CIDR ranges that may read `GET /metrics`; empty turns it off. */
  metricsAllowFrom: addressList.default(['127.0.0.1', '::1']),
  /**
   * Reverse proxies (addresses and CIDR ranges) whose X-Forwarded-For and X-Forwarded-Proto are
   * believed; nobody's by default.
   */
  trustedProxies: addressList.default([]),
  /** PEM certificate (with its chain) and key: the server then speaks HTTPS itself. */
  tlsCert: z.string().min(1).optional(),
  tlsKey: z.string().min(1).optional(),
  /**
   * How a new organisation keeps its items' metadata: `v5` (encrypted, passbolt 5's default)
   * has the first administrator's extension set encrypted metadata up; `v4` keeps it in clear.
   */
  metadataNewOrganisations: z.enum(['v4', 'v5']).default('v5'),
  /**
   * Characters of whole lists each process keeps until a table they read changes, for the
   * resources lists and as much again for the users directory and views; 0 keeps none.
   */
  listCacheSize: bytes.default(128 * 1024 * 1024),
})

export type ServerConfig = z.output<typeof configSchema> & { appUrl: string }

/** Environment variable of each field. */
export const ENV: Record<keyof z.input<typeof configSchema>, string> = {
  host: 'KEYWARD_HOST',
  port: 'KEYWARD_PORT',
  appUrl: 'KEYWARD_APP_URL',
  databaseUrl: 'DATABASE_URL',
  dataDir: 'KEYWARD_DATA_DIR',
  embeddedPostgresPort: 'KEYWARD_EMBEDDED_PG_PORT',
  logLevel: 'KEYWARD_LOG_LEVEL',
  bodyLimit: 'KEYWARD_BODY_LIMIT',
  avatarMaxSize: 'KEYWARD_AVATAR_MAX_SIZE',
  disabledPlugins: 'KEYWARD_DISABLED_PLUGINS',
  serverKeyPrivate: 'KEYWARD_SERVER_KEY_PRIVATE',
  serverKeyPublic: 'KEYWARD_SERVER_KEY_PUBLIC',
  locale: 'KEYWARD_LOCALE',
  privacyPolicyUrl: 'KEYWARD_PRIVACY_POLICY_URL',
  termsUrl: 'KEYWARD_TERMS_URL',
  sessionTimeout: 'KEYWARD_SESSION_TIMEOUT',
  smtpUrl: 'KEYWARD_SMTP_URL',
  mailFrom: 'KEYWARD_MAIL_FROM',
  jwtPrivateKey: 'KEYWARD_JWT_PRIVATE_KEY',
  jwtPublicKey: 'KEYWARD_JWT_PUBLIC_KEY',
  authRateLimit: 'KEYWARD_AUTH_RATE_LIMIT',
  authRateLimitPerAddress: 'KEYWARD_AUTH_RATE_LIMIT_PER_ADDRESS',
  requestTimeout: 'KEYWARD_REQUEST_TIMEOUT',
  mfaMaxAttempts: 'KEYWARD_MFA_MAX_ATTEMPTS',
  metricsAllowFrom: 'KEYWARD_METRICS_ALLOW_FROM',
  trustedProxies: 'KEYWARD_TRUSTED_PROXIES',
  tlsCert: 'KEYWARD_TLS_CERT',
  tlsKey: 'KEYWARD_TLS_KEY',
  metadataNewOrganisations: 'KEYWARD_METADATA_NEW_ORGANISATIONS',
  listCacheSize: 'KEYWARD_LIST_CACHE_SIZE',
}

export class ConfigError extends Error {
  override name = 'ConfigError'
}

export interface LoadConfigOptions {
  env?: NodeJS.ProcessEnv
  /** Values that win over the environment (command-line flags). */
  overrides?: Partial<Record<keyof typeof ENV, unknown>>
  cwd?: string
}

export const loadConfig = (options: LoadConfigOptions = {}): ServerConfig => {
  const env = options.env ?? process.env
  const cwd = options.cwd ?? process.cwd()
  const file = env.KEYWARD_CONFIG
    ? resolve(cwd, env.KEYWARD_CONFIG)
    : resolve(cwd, 'keyward.config.json')
  let fromFile: Record<string, unknown> = {}
  if (existsSync(file)) {
    try {
      fromFile = JSON.parse(readFileSync(file, 'utf8'))
    } catch (error) {
      throw new ConfigError(`${file}: ${(error as Error).message}`)
    }
  } else if (env.KEYWARD_CONFIG) throw new ConfigError(`KEYWARD_CONFIG: ${file} does not exist`)
  const fromEnv: Record<string, unknown> = {}
  for (const [field, name] of Object.entries(ENV)) {
    const value = env[name]
    if (value === undefined || value === '') continue
    fromEnv[field] = LIST_FIELDS.has(field)
      ? value
          .split(',')
          .map((s) => s.trim())
          .filter(Boolean)
      : value
  }
  const overrides = Object.fromEntries(
    Object.entries(options.overrides ?? {}).filter(([, v]) => v !== undefined),
  )
  const result = configSchema.safeParse({ ...fromFile, ...fromEnv, ...overrides })
  if (!result.success) {
    const lines = result.error.issues.map((issue) => {
      const field = String(issue.path[0] ?? '')
      const where =
        field in fromEnv
          ? ENV[field as keyof typeof ENV]
          : field in fromFile
            ? `${file}: ${field}`
            : field
      return `${where || file}: ${issue.code === 'unrecognized_keys' ? `unknown field(s) ${issue.keys.join(', ')}` : issue.message}`
    })
    throw new ConfigError(lines.join('\n'))
  }
  const config = result.data
  if (Boolean(config.tlsCert) !== Boolean(config.tlsKey))
    throw new ConfigError(
      `${config.tlsCert ? ENV.tlsKey : ENV.tlsCert}: HTTPS needs both a certificate and its key`,
    )
  const dataDir = resolve(cwd, config.dataDir)
  return {
    ...config,
    dataDir,
    tlsCert: config.tlsCert && resolve(cwd, config.tlsCert),
    tlsKey: config.tlsKey && resolve(cwd, config.tlsKey),
    appUrl:
      config.appUrl ??
      `${config.tlsCert ? 'https' : 'http'}://${config.host.includes(':') ? `[${config.host}]` : config.host}:${config.port}/`,
  }
}
