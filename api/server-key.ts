// The server's OpenPGP key pair: read from the configured files, or generated on first start
// and written owner-only under `<dataDir>/gpg/`.
import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import * as openpgp from 'openpgp'
import type { Logger } from 'pino'
import type { ServerConfig } from './config.ts'
import { ensureKeyPair } from './key-file.ts'

export interface ServerKey {
  /** Upper-case hex, as passbolt shows it. */
  fingerprint: string
  armoredPublicKey: string
  privateKey: openpgp.PrivateKey
  publicKey: openpgp.Key
}

export const serverKeyPaths = (config: ServerConfig) => ({
  privatePath: config.serverKeyPrivate ?? join(config.dataDir, 'gpg', 'serverkey_private.asc'),
  publicPath: config.serverKeyPublic ?? join(config.dataDir, 'gpg', 'serverkey.asc'),
})

/** Curve25519 (Ed25519 signing, X25519 encryption): every sign-in decrypts and signs with this
 * key, and openpgp.js does RSA private-key operations in JavaScript, about 20 times slower. */
const generate = async (config: ServerConfig) => {
  const host = new URL(config.appUrl).hostname || 'localhost'
  const { privateKey, publicKey } = await openpgp.generateKey({
    type: 'ecc',
    curve: 'curve25519Legacy',
    userIDs: [
      {
        name: 'Keyward server key',
        email: `server@${host.includes('.') ? host : `${host}.local`}`,
      },
    ],
    format: 'armored',
  })
  return { privateKey, publicKey }
}

export class ServerKeyError extends Error {
  override name = 'ServerKeyError'
}

export const loadServerKey = async (config: ServerConfig, logger: Logger): Promise<ServerKey> => {
  const { privatePath, publicPath } = serverKeyPaths(config)
  if (await ensureKeyPair({ privatePath, publicPath }, () => generate(config)))
    logger.info('generated the server OpenPGP key (Curve25519)')
  for (const path of [privatePath, publicPath])
    if (!existsSync(path)) throw new ServerKeyError(`server key file ${path} is missing`)
  let privateKey: openpgp.PrivateKey
  let publicKey: openpgp.Key
  try {
    privateKey = await openpgp.readPrivateKey({ armoredKey: readFileSync(privatePath, 'utf8') })
    publicKey = await openpgp.readKey({ armoredKey: readFileSync(publicPath, 'utf8') })
  } catch (error) {
    throw new ServerKeyError(`server key: ${(error as Error).message}`)
  }
  if (!privateKey.isDecrypted())
    throw new ServerKeyError('server key: the private key must not need a passphrase')
  if (privateKey.getFingerprint() !== publicKey.getFingerprint())
    throw new ServerKeyError('server key: the public and private key files do not belong together')
  return {
    fingerprint: publicKey.getFingerprint().toUpperCase(),
    armoredPublicKey: publicKey.armor(),
    privateKey,
    publicKey,
  }
}
