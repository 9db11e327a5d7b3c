// The JWT signing key pair (RSA 4096, RS256): read from the configured PEM files, or generated on
// first start under `<dataDir>/jwt/` (private key readable by its owner only).
import { generateKeyPair } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { type CryptoKey, exportJWK, importPKCS8, importSPKI, type JWK } from 'jose'
import type { AppContext } from '../../api/app.ts'
import { ensureKeyPair } from '../../api/key-file.ts'
import { pluginState } from '../../api/plugin.ts'
import { VerifiedTokens } from './verified-tokens.ts'

export interface JwtKeys {
  privateKey: CryptoKey
  publicKey: CryptoKey
  publicPem: string
  jwk: JWK
  /** Tokens this process already verified with `publicKey`. */
  verified: VerifiedTokens
}

export const loadJwtKeys = async (app: AppContext): Promise<JwtKeys> => {
  const privatePath = app.config.jwtPrivateKey ?? join(app.config.dataDir, 'jwt', 'jwt.key')
  const publicPath = app.config.jwtPublicKey ?? join(app.config.dataDir, 'jwt', 'jwt.pem')
  const generated = await ensureKeyPair({ privatePath, publicPath }, () =>
    promisify(generateKeyPair)('rsa', {
      modulusLength: 4096,
      publicKeyEncoding: { type: 'spki', format: 'pem' },
      privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
    }),
  )
  if (generated) app.logger.info('generated the JWT key pair (RSA 4096)')
  const publicPem = readFileSync(publicPath, 'utf8')
  const privateKey = await importPKCS8(readFileSync(privatePath, 'utf8'), 'RS256')
  const publicKey = await importSPKI(publicPem, 'RS256', { extractable: true })
  const jwk = await exportJWK(publicKey)
  return {
    privateKey,
    publicKey,
    publicPem,
    jwk: { kty: jwk.kty, alg: 'RS256', use: 'sig', e: jwk.e, n: jwk.n },
    verified: new VerifiedTokens(),
  }
}

export const jwtKeys = pluginState<JwtKeys>('jwt')
