// The rules a user's public key must meet (issue 4): armored public key, not expired, not
// revoked, able to encrypt, a user id whose email is the username, RSA of 3072 bits or more or
// a modern ECC curve. Problems come back as passbolt-style rule names.
import * as openpgp from 'openpgp'

const MODERN_CURVES = new Set([
  'ed25519',
  'ed25519Legacy',
  'curve25519',
  'curve25519Legacy',
  'nistP256',
  'nistP384',
  'nistP521',
  'ed448',
  'x448',
])

export interface KeyFacts {
  armoredKey: string
  fingerprint: string
  keyId: string
  bits: number | null
  type: 'RSA' | 'ECC'
  uid: string
  expires: Date | null
  keyCreated: Date
}

export type KeyCheck = { ok: true; key: KeyFacts } | { ok: false; rule: string; message: string }

const fail = (rule: string, message: string): KeyCheck => ({ ok: false, rule, message })

export const checkPublicKey = async (armored: string, username: string): Promise<KeyCheck> => {
  if (armored.length > 64_000 || !armored.includes('-----BEGIN PGP PUBLIC KEY BLOCK-----'))
    return fail(
      'isParsableArmoredPublicKey',
      'The key should be a valid OpenPGP armored public key.',
    )
  let key: openpgp.Key
  try {
    key = await openpgp.readKey({ armoredKey: armored })
  } catch {
    return fail(
      'isParsableArmoredPublicKey',
      'The key should be a valid OpenPGP armored public key.',
    )
  }
  if (key.isPrivate()) return fail('isParsableArmoredPublicKey', 'The key should be a public key.')
  if (await key.isRevoked()) return fail('isNotRevoked', 'The key should not be revoked.')
  const expiration = await key.getExpirationTime()
  if (expiration instanceof Date && expiration.getTime() <= Date.now())
    return fail('isNotExpired', 'The key should not be expired.')
  try {
    await key.getEncryptionKey()
  } catch {
    return fail('canEncrypt', 'The key should be able to encrypt.')
  }
  const info = key.getAlgorithmInfo()
  const rsa = info.algorithm.startsWith('rsa')
  if (rsa && (info.bits ?? 0) < 3072)
    return fail(
      'isStrongEnough',
      'The key should be an RSA key of 3072 bits or more, or a modern ECC key.',
    )
  if (!rsa && !MODERN_CURVES.has(String(info.curve)))
    return fail(
      'isStrongEnough',
      'The key should be an RSA key of 3072 bits or more, or a modern ECC key.',
    )
  const emails = key.users.map((user) => user.userID?.email?.toLowerCase()).filter(Boolean)
  if (!emails.includes(username.toLowerCase()))
    return fail('hasUserEmail', 'The key should have a user id with the email of the account.')
  const primaryUser = key.users.find(
    (user) => user.userID?.email?.toLowerCase() === username.toLowerCase(),
  )
  const fingerprint = key.getFingerprint().toUpperCase()
  return {
    ok: true,
    key: {
      armoredKey: key.armor(),
      fingerprint,
      keyId: fingerprint.slice(-16),
      bits: rsa ? (info.bits ?? null) : null,
      type: rsa ? 'RSA' : 'ECC',
      uid: (primaryUser?.userID?.userID ?? username).slice(0, 128),
      expires: expiration instanceof Date ? expiration : null,
      keyCreated: key.getCreationTime(),
    },
  }
}
