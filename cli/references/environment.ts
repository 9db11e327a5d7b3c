// The environment reference page, generated from the server's configuration schema (api/config.ts)
// so that a setting cannot exist without its line in the manual.
import { z } from 'zod'
import { configSchema, ENV } from '../../api/config.ts'

type Field = keyof typeof ENV

/**
 * What each setting does, for the reader. The schema gives the name, variable, type, bounds and
 * default; this gives the meaning. A field the schema describes itself (`.describe()`) needs no line.
 */
export const SETTING_DESCRIPTIONS: Partial<Record<Field, string>> = {
  host: 'Address to listen on. `0.0.0.0` or `::` listens on every interface; keep the default behind a proxy on the same machine.',
  port: 'Port to listen on. `0` picks a free port (useful in tests only).',
  appUrl:
    'The address clients use to reach the server, with a trailing slash, such as `https://vault.example.com/`. Links in mails and the setup pages are built from it, and the extension is set up for this exact address. Unset: `http://<host>:<port>/`, or `https://` when the server has a certificate.',
  databaseUrl:
    'PostgreSQL connection, `postgres://user:password@host:5432/keyward` (add `?sslmode=require` for a managed database). Unset: an embedded PostgreSQL runs under the data folder, listening on loopback only.',
  dataDir:
    'Folder of the embedded database and its password, the generated server and JWT keys, and the outbox of mails written when no SMTP server is set. Relative paths start at the working folder.',
  embeddedPostgresPort:
    'Port of the embedded PostgreSQL, bound to loopback. Ignored when `DATABASE_URL` is set.',
  logLevel:
    'How much the server logs, as JSON lines on standard output. Logs never hold cookies, tokens, passwords or keys.',
  bodyLimit:
    'Largest request body, such as `512kb` or `10mb` (a bare number is bytes). A larger body gets 413 before it is read.',
  avatarMaxSize:
    'Largest avatar image a user may upload, before resizing. A larger image gets 400.',
  disabledPlugins:
    'Comma-separated names of plugins to leave out, such as `mobile-transfers,metrics`. Their routes answer 404 and their flags leave `/settings.json`. Leaving out a plugin that an enabled one depends on stops the start with a line naming both.',
  serverKeyPrivate:
    "The server's armored OpenPGP private key, without passphrase. When both key files are absent, a Curve25519 key pair is generated at `<data>/gpg/serverkey_private.asc` (mode 0600) on the first start.",
  serverKeyPublic: "The server's armored OpenPGP public key. Unset: `<data>/gpg/serverkey.asc`.",
  locale:
    'Language offered to clients until an administrator saves one in **Internationalisation**, such as `en-UK` or `fr-FR`.',
  privacyPolicyUrl: 'Link to your privacy policy, shown by the clients. Empty shows no link.',
  termsUrl: 'Link to your terms of service, shown by the clients. Empty shows no link.',
  sessionTimeout: 'Minutes of inactivity before a cookie session ends (at most a week).',
  smtpUrl:
    'Outgoing mail server, `smtp://user:password@host:587` (STARTTLS) or `smtps://user:password@host:465`. Settings an administrator saves in **Email server** win over it. With neither, each mail is written to `<data>/outbox/` as a file.',
  mailFrom:
    'Sender of the mails, such as `Keyward <vault@example.com>`, until an administrator saves one.',
  jwtPrivateKey:
    'PEM private key signing the access tokens of the mobile and desktop apps and the CLI (RS256). When both JWT files are absent, an RSA 4096 pair is generated at `<data>/jwt/jwt.key` and `jwt.pem`.',
  jwtPublicKey: 'PEM public key of the JWT pair. Unset: `<data>/jwt/jwt.pem`.',
  authRateLimit:
    'Failed attempts a minute per account on the sign-in, JWT, MFA and setup routes; beyond it the answer is 429. Successes are not counted. Counted in PostgreSQL, so every process on the database shares the count.',
  authRateLimitPerAddress:
    'Failed attempts a minute on those routes per client address, whatever the account. Raise it when a whole office reaches the server through one address.',
  requestTimeout:
    'Seconds a client has to send a whole request; headers must arrive within 10 seconds. Slower connections are closed.',
  mfaMaxAttempts:
    'Wrong one-time passwords allowed since the last sign-in; one more signs the user out.',
  metricsAllowFrom:
    'Addresses and CIDR ranges that may read `GET /metrics` (Prometheus text); others get 404. In the file, `[]` turns the endpoint off.',
  trustedProxies:
    'Addresses and CIDR ranges of your reverse proxies, such as `127.0.0.1` or `10.0.0.0/8`. From them only, `X-Forwarded-For` gives the client address (for the sign-in limits, the logs and `KEYWARD_METRICS_ALLOW_FROM`) and `X-Forwarded-Proto` tells whether the client came over HTTPS. Empty: nobody is believed, and every request seems to come from the proxy.',
  tlsCert:
    'PEM certificate, with its chain, for the server to speak HTTPS itself (HTTP/2 and HTTP/1.1, TLS 1.2 or later). Set both or neither; SIGHUP reads renewed files.',
  tlsKey: 'PEM private key of `KEYWARD_TLS_CERT`.',
  metadataNewOrganisations:
    "How a new organisation keeps its passwords' names, URLs and descriptions: `v5` has the first administrator's extension set encrypted metadata up, `v4` keeps them in clear until an administrator turns encryption on.",
  listCacheSize:
    'How much of the passwords lists each process keeps, per user and request, to answer the same request again without PostgreSQL, and as much again of the users directory and user views. A change to what a list shows drops that list (of the passwords lists, only those of the users the change concerns); a list over an eighth of this size is never kept. `0` keeps none.',
}

/** Variables read outside the configuration schema, documented on the same page. */
export const OTHER_VARIABLES: { name: string; description: string }[] = [
  {
    name: 'KEYWARD_CONFIG',
    description:
      'Path of the JSON configuration file. Unset: `keyward.config.json` in the working folder, read when it exists. A named file that does not exist stops the start.',
  },
  {
    name: 'KEYWARD_BACKUP_PASSPHRASE',
    description:
      'Passphrase of the private key given to `api restore --decrypt-with`, when that key has one.',
  },
  {
    name: 'NODE_ENV',
    description:
      "`production` (what `bin/api.js` sets when it is unset) skips checking each answer against its route's response schema; any other value checks them, as development and tests do.",
  },
  {
    name: 'KEYWARD_CACHE_DIR',
    description:
      "Where `api` and `docs` keep their compiled bundles when the install's `node_modules/.cache` is read-only. After it come systemd's `CACHE_DIRECTORY`, then `XDG_CACHE_HOME`, the `.cache` folder of the home folder, and the temporary folder.",
  },
  {
    name: 'CACHE_DIRECTORY',
    description: "Set by systemd's `CacheDirectory=`; used as described for `KEYWARD_CACHE_DIR`.",
  },
  {
    name: 'XDG_CACHE_HOME',
    description: 'Used as described for `KEYWARD_CACHE_DIR`, under a `keyward` folder.',
  },
  {
    name: 'KW_DEBUG_ERRORS',
    description:
      'When set, the log of an unexpected error (a 500) holds its message as well as its type. Leave it unset in production: a message may quote data.',
  },
]

/**
 * Variables that the programs set for their own child processes, not for administrators: the
 * drift test accepts them without a line on the page.
 */
export const INTERNAL_VARIABLES = [
  'KEYWARD_RUNTIME_CACHE',
  'KEYWARD_DOCS_BUNDLE',
  'TSX_DISABLE_CACHE',
  'TSX_TSCONFIG_PATH',
]

const MIB = 1024 * 1024

const formatDefault = (field: Field, value: unknown, bytes: boolean): string => {
  if (value === undefined) return 'unset'
  if (bytes && typeof value === 'number')
    return value % MIB === 0 ? `\`${value / MIB}mb\`` : `\`${value / 1024}kb\``
  if (Array.isArray(value)) return value.length ? `\`${value.join(',')}\`` : 'none'
  if (value === '') return 'empty'
  return field === 'dataDir' || typeof value !== 'object' ? `\`${String(value)}\`` : 'set'
}

interface JsonProperty {
  type?: string
  enum?: string[]
  minimum?: number
  maximum?: number
  pattern?: string
  format?: string
  anyOf?: JsonProperty[]
  items?: JsonProperty
  description?: string
}

const escapeCell = (text: string) => text.replaceAll('|', '\\|')

const describeValue = (property: JsonProperty): string => {
  if (property.enum) return property.enum.map((v) => `\`${v}\``).join(', ')
  if (property.pattern === '^\\d+(kb|mb)?$') return 'size: bytes, `kb` or `mb`'
  if (property.type === 'integer') return `whole number, ${property.minimum} to ${property.maximum}`
  if (property.type === 'array') return 'comma-separated list'
  if (property.format === 'uri') return 'URL'
  if (property.anyOf?.some((p) => p.format === 'uri')) return 'URL, or empty'
  if (property.pattern?.startsWith('^postgres')) return '`postgres://` URL'
  if (property.pattern?.startsWith('^smtp')) return '`smtp://` or `smtps://` URL'
  return 'text'
}

export interface SettingRow {
  field: Field
  variable: string
  value: string
  default: string
  description: string | undefined
}

/** One row per field of the configuration schema, in the schema's order. */
export const settingRows = (): SettingRow[] => {
  const json = z.toJSONSchema(configSchema, { io: 'input', unrepresentable: 'any' }) as {
    properties: Record<string, JsonProperty>
  }
  const defaults = configSchema.parse({}) as Record<string, unknown>
  return (Object.keys(configSchema.shape) as Field[]).map((field) => {
    const property = json.properties[field]
    const bytes = property.pattern === '^\\d+(kb|mb)?$'
    return {
      field,
      variable: ENV[field],
      value: describeValue(property),
      default: formatDefault(field, defaults[field], bytes),
      description: property.description ?? SETTING_DESCRIPTIONS[field],
    }
  })
}

/** The Markdown of the environment reference page. */
export const renderEnvironmentReference = (): string => {
  const rows = settingRows()
  const table = rows.map(
    (row) =>
      `| \`${row.variable}\` | \`${row.field}\` | ${escapeCell(row.value)} | ${row.default} | ${escapeCell(row.description ?? '')} |`,
  )
  const others = OTHER_VARIABLES.map((v) => `| \`${v.name}\` | ${escapeCell(v.description)} |`)
  return `---
title: Environment reference
description: Every setting of the Keyward API server, as an environment variable or a field of keyward.config.json, with its values and default.
sidebar_position: 0
keywords:
  - environment
  - configuration
  - settings
  - keyward.config.json
---

The API server reads its settings once, at start. Each can be set as an environment variable, or
as a camelCase field of a JSON file: \`keyward.config.json\` in the working folder, or the file that
\`KEYWARD_CONFIG\` names. Environment variables win over the file, and the flags of \`api start\`
(\`--port\`, \`--host\`, \`--tls-cert\`, \`--tls-key\`) win over both. In the file, list settings
are JSON arrays; in a variable they are comma-separated.

This page is generated from the server's configuration schema by \`npm run docs:references\`, and
a test fails when the two differ, so it lists every setting the server accepts: ${rows.length} of them.

A bad value, or an unknown field in the file, stops the start with one line per problem, naming
the variable or the file's field:

\`\`\`text
KEYWARD_PORT: Invalid input: expected number, received NaN
KEYWARD_LOG_LEVEL: Invalid option: expected one of "fatal"|"error"|"warn"|"info"|"debug"|"trace"|"silent"
\`\`\`

## Settings

| Variable | File field | Value | Default | Meaning |
|---|---|---|---|---|
${table.join('\n')}

## Other variables

These are read outside the configuration file.

| Variable | Meaning |
|---|---|
${others.join('\n')}

## An example file

\`\`\`json
{
  "appUrl": "https://vault.example.com/",
  "databaseUrl": "postgres://keyward:secret@127.0.0.1:5432/keyward",
  "dataDir": "/var/lib/keyward",
  "smtpUrl": "smtp://vault%40example.com:secret@smtp.example.com:587",
  "mailFrom": "Keyward <vault@example.com>",
  "metricsAllowFrom": ["127.0.0.1", "10.0.0.0/8"]
}
\`\`\`

Characters that mean something in a URL, such as \`@\` or \`:\` in a user name or password, are
percent-encoded (\`%40\`, \`%3A\`).

:::warning Keep the server key
When both key files are missing, the server generates its key pair on the first start. Back up
both files with the database: clients remember the server key's fingerprint and refuse a server
whose key changed. See [Backup](../backup/index.md).
:::

See the [command-line reference](../cli-reference/index.md) for the commands and their flags.
`
}
