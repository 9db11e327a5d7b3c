// The server's own checks, grouped by domain in passbolt's healthcheck layout. Each check says
// whether a failure is an error (the server is broken) or a warning.
import { accessSync, constants } from 'node:fs'
import { tmpdir } from 'node:os'
import type { EntityManager } from '@mikro-orm/postgresql'
import * as openpgp from 'openpgp'
import type { AppContext } from '../../api/app.ts'
import { selectRows } from '../../api/orm.ts'
import { countRoles } from '../roles/index.ts'
import { type ProductionCheckOptions, productionChecks } from './production.ts'

export interface Check {
  domain: string
  name: string
  ok: boolean
  level: 'error' | 'warning'
  description: string
}

export const writable = (dir: string) => {
  try {
    accessSync(dir, constants.W_OK)
    return true
  } catch {
    return false
  }
}

export const databaseChecks = async (em: EntityManager) => {
  try {
    const [{ count }] = await selectRows<{ count: string }>(em, (knex) =>
      knex('information_schema.tables').where({ table_schema: 'public' }).count({ count: '*' }),
    )
    const roles = await countRoles(em)
    return {
      connect: true,
      tablesCount: Number(count) >= 20,
      defaultContent: roles >= 3,
      tables: Number(count),
    }
  } catch {
    return { connect: false, tablesCount: false, defaultContent: false, tables: 0 }
  }
}

export const keyChecks = async (app: AppContext) => {
  const { privateKey, publicKey } = app.serverKey
  try {
    const message = await openpgp.createMessage({ text: 'keyward healthcheck' })
    const encrypted = await openpgp.encrypt({
      message,
      encryptionKeys: publicKey,
      signingKeys: privateKey,
    })
    const { data, signatures } = await openpgp.decrypt({
      message: await openpgp.readMessage({ armoredMessage: encrypted as string }),
      decryptionKeys: privateKey,
      verificationKeys: publicKey,
      expectSigned: true,
    })
    await signatures[0].verified
    return { canEncryptSign: true, canDecryptVerify: data === 'keyward healthcheck' }
  } catch {
    return { canEncryptSign: false, canDecryptVerify: false }
  }
}

export const runChecks = async (
  app: AppContext,
  em: EntityManager,
  options: ProductionCheckOptions = {},
): Promise<Check[]> => {
  const url = new URL(app.config.appUrl)
  const https = url.protocol === 'https:'
  const database = await databaseChecks(em)
  const key = await keyChecks(app)
  const [major, minor] = process.versions.node.split('.').map(Number)
  const check = (
    domain: string,
    name: string,
    ok: boolean,
    description: string,
    level: Check['level'] = 'error',
  ): Check => ({
    domain,
    name,
    ok,
    level,
    description,
  })
  return [
    check(
      'environment',
      'nodeVersion',
      major > 20 || (major === 20 && minor >= 19),
      `Node.js ${process.versions.node} (>= 20.19 needed)`,
    ),
    check(
      'environment',
      'tmpWritable',
      writable(tmpdir()),
      `temporary folder ${tmpdir()} is writable`,
    ),
    check(
      'environment',
      'dataWritable',
      writable(app.config.dataDir) || !!app.config.databaseUrl,
      `data folder ${app.config.dataDir} is writable`,
    ),
    check('configFile', 'app', true, 'configuration is valid'),
    check(
      'core',
      'fullBaseUrl',
      url.pathname.endsWith('/'),
      `app url ${app.config.appUrl} ends with /`,
    ),
    check('ssl', 'sslFullBaseUrl', https, 'the app url uses https', 'warning'),
    check('database', 'connect', database.connect, 'the database answers'),
    check(
      'database',
      'tablesCount',
      database.tablesCount,
      `the schema is migrated (${database.tables} tables)`,
    ),
    check('database', 'defaultContent', database.defaultContent, 'the built-in roles exist'),
    check(
      'gpg',
      'gpgKeyPublic',
      app.serverKey.armoredPublicKey.includes('BEGIN PGP PUBLIC KEY BLOCK'),
      `server key ${app.serverKey.fingerprint}`,
    ),
    check('gpg', 'canEncryptSign', key.canEncryptSign, 'the server key can encrypt and sign'),
    check('gpg', 'canDecryptVerify', key.canDecryptVerify, 'the server key can decrypt and verify'),
    check('application', 'schema', database.tablesCount, 'the database schema is up to date'),
    ...(await productionChecks(app, em, check, options)),
  ]
}
