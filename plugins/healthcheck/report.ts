// The administrators' healthcheck report in passbolt's layout (the administration page checks
// it against the client's own healthcheck entity, so every domain it requires is there). Fields
// named after PHP (phpVersion, pcre, mbstring, intl, gnupg) report Keyward's counterparts:
// the Node.js version, its built-in regular expressions, Unicode and Intl support, and
// openpgp.js. Plugins add their own fields (SMTP settings, self-registration).
import { existsSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, resolve } from 'node:path'
import type { EntityManager } from '@mikro-orm/postgresql'
import * as openpgp from 'openpgp'
import type { AppContext } from '../../api/app.ts'
import type { HealthcheckFields } from '../../api/plugin.ts'
import { serverKeyPaths } from '../../api/server-key.ts'
import { KEYWARD_VERSION } from '../settings/index.ts'
import { databaseChecks, keyChecks, writable } from './service.ts'

const TEXT = 'keyward healthcheck'

const attempt = async (work: () => Promise<boolean>) => {
  try {
    return await work()
  } catch {
    return false
  }
}

/** Each OpenPGP operation the server does with its key, tried on its own. */
const keyOperations = async (app: AppContext) => {
  const { privateKey, publicKey } = app.serverKey
  const signed = await attempt(async () => {
    const signature = await openpgp.sign({
      message: await openpgp.createMessage({ text: TEXT }),
      signingKeys: privateKey,
      detached: true,
    })
    const { signatures } = await openpgp.verify({
      message: await openpgp.createMessage({ text: TEXT }),
      signature: await openpgp.readSignature({ armoredSignature: signature as string }),
      verificationKeys: publicKey,
    })
    return (await signatures[0].verified) === true
  })
  const encrypted = await attempt(async () => {
    const message = await openpgp.encrypt({
      message: await openpgp.createMessage({ text: TEXT }),
      encryptionKeys: publicKey,
    })
    const { data } = await openpgp.decrypt({
      message: await openpgp.readMessage({ armoredMessage: message as string }),
      decryptionKeys: privateKey,
    })
    return data === TEXT
  })
  const both = await keyChecks(app)
  return {
    canSign: signed,
    canVerify: signed,
    canEncrypt: encrypted,
    canDecrypt: encrypted,
    canEncryptSign: both.canEncryptSign,
    canDecryptVerify: both.canDecryptVerify,
  }
}

const readable = (path: string, marker: string) => {
  try {
    return readFileSync(path, 'utf8').includes(marker)
  } catch {
    return false
  }
}

/** Whether the server answers on its own public address (its liveness probe). */
const reachable = async (appUrl: string) => {
  try {
    const response = await fetch(new URL('healthcheck/status.json', appUrl), {
      signal: AbortSignal.timeout(2_000),
    })
    return response.ok
  } catch {
    return false
  }
}

/** The configuration file in use, or where the settings come from. */
const configPath = () => {
  const file = resolve(process.env.KEYWARD_CONFIG ?? 'keyward.config.json')
  return existsSync(file) ? file : 'environment variables (KEYWARD_*)'
}

const merge = (report: HealthcheckFields, fields: HealthcheckFields) => {
  for (const [domain, values] of Object.entries(fields)) {
    report[domain] ??= {}
    const target = report[domain]
    for (const [name, value] of Object.entries(values)) {
      const existing = target[name]
      target[name] =
        existing && typeof existing === 'object' && value && typeof value === 'object'
          ? { ...existing, ...value }
          : value
    }
  }
}

export const healthcheckReport = async (
  app: AppContext,
  em: EntityManager,
): Promise<HealthcheckFields> => {
  const { config } = app
  const url = new URL(config.appUrl)
  const https = url.protocol === 'https:'
  const [major, minor] = process.versions.node.split('.').map(Number)
  const nodeSupported = major > 20 || (major === 20 && minor >= 19)
  const database = await databaseChecks(em)
  const keys = await keyOperations(app)
  const paths = serverKeyPaths(config)
  const gpgHome = dirname(resolve(paths.privatePath))
  const publicBlock = readable(paths.publicPath, 'BEGIN PGP PUBLIC KEY BLOCK')
  const privateBlock = readable(paths.privatePath, 'BEGIN PGP PRIVATE KEY BLOCK')
  const email = app.serverKey.publicKey.users.some((user) => Boolean(user.userID?.email))
  const selfReachable = await reachable(config.appUrl)
  const report: HealthcheckFields = {
    environment: {
      phpVersion: nodeSupported,
      nextMinPhpVersion: nodeSupported,
      pcre: true,
      mbstring: true,
      gnupg: true,
      intl: typeof Intl === 'object',
      image: true,
      tmpWritable: writable(tmpdir()),
      logWritable: writable(config.dataDir) || Boolean(config.databaseUrl),
      info: { phpVersion: `Node.js ${process.versions.node}` },
    },
    configFile: { app: true, passbolt: true },
    core: {
      cache: true,
      debugDisabled: !['debug', 'trace'].includes(config.logLevel),
      salt: true,
      fullBaseUrl: url.pathname.endsWith('/'),
      validFullBaseUrl: url.protocol === 'http:' || https,
      fullBaseUrlReachable: selfReachable,
      info: { fullBaseUrl: config.appUrl },
    },
    ssl: {
      peerValid: https && selfReachable,
      hostValid: https && selfReachable,
      notSelfSigned: https && selfReachable,
      info: https
        ? 'The certificate was checked by reaching the server at its public address.'
        : 'The public address uses plain HTTP.',
    },
    smtpSettings: {
      isEnabled: Boolean(config.smtpUrl),
      areEndpointsDisabled: true,
      errorMessage: false,
      source: 'env',
      isInDb: false,
    },
    database: {
      supportedBackend: true,
      connect: database.connect,
      tablesCount: database.tablesCount,
      defaultContent: database.defaultContent,
      info: { tablesCount: database.tables },
    },
    gpg: {
      lib: true,
      gpgHome: existsSync(gpgHome),
      gpgHomeWritable: writable(gpgHome),
      gpgKeyNotDefault: true,
      gpgKey: true,
      gpgKeyPublic: existsSync(paths.publicPath),
      gpgKeyPublicReadable: publicBlock,
      gpgKeyPublicBlock: publicBlock,
      gpgKeyPrivate: existsSync(paths.privatePath),
      gpgKeyPrivateReadable: privateBlock,
      gpgKeyPrivateBlock: privateBlock,
      gpgKeyPublicFingerprint: true,
      gpgKeyPrivateFingerprint:
        app.serverKey.privateKey.getFingerprint() === app.serverKey.publicKey.getFingerprint(),
      // No keyring: the key is read from its files into memory.
      gpgKeyPublicInKeyring: true,
      gpgKeyPublicEmail: email,
      ...keys,
      isPublicServerKeyGopengpgCompatible: true,
      isPrivateServerKeyGopengpgCompatible: true,
      info: { gpgHome, gpgKeyPrivate: resolve(paths.privatePath) },
    },
    application: {
      configPath: configPath(),
      latestVersion: null,
      schema: database.tablesCount,
      robotsIndexDisabled: true,
      sslForce: https,
      sslFullBaseUrl: https,
      seleniumDisabled: true,
      registrationClosed: {
        isSelfRegistrationPluginEnabled: false,
        selfRegistrationProvider: null,
        isRegistrationPublicRemovedFromPassbolt: true,
      },
      hostAvailabilityCheckEnabled: false,
      jsProd: true,
      emailNotificationEnabled: true,
      info: { remoteVersion: null, currentVersion: KEYWARD_VERSION.number },
    },
  }
  for (const plugin of app.plugins)
    if (plugin.healthcheck) merge(report, await plugin.healthcheck(app, em))
  return report
}
