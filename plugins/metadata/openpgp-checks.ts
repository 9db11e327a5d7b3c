// What the server checks of the OpenPGP data metadata keys come with, without ever decrypting:
// a public key's shape (algorithm, size, no expiry date, revoked or not) and whether a message
// is addressed to a given key. Sizes and packet counts are bounded before anything is parsed.
import * as openpgp from 'openpgp'
import { MAX_DECOMPRESSED_BYTES } from '../../api/openpgp-input.ts'
import { dearmor, messageRecipients, publicKeyIds, readPackets } from '../../api/openpgp-packets.ts'

/** A metadata public key: a primary key, a subkey, user ids and signatures; an RSA 4096 is ~3 KB. */
export const MAX_ARMORED_PUBLIC_KEY = 50_000

/** Packets a metadata public key may hold (keys, user ids, their signatures, a revocation). */
const MAX_KEY_PACKETS = 64

/** A metadata private key encrypted for one user: an armored RSA 4096 key inside is ~7 KB. */
export const MAX_ARMORED_PRIVATE_KEY_MESSAGE = 100_000

const config = { maxDecompressedMessageSize: MAX_DECOMPRESSED_BYTES }

export interface PublicKeyFacts {
  /** Upper-case hex. */
  fingerprint: string
  revoked: boolean
  /** Whether the key carries an expiry date (passbolt refuses one on a metadata key). */
  expires: boolean
  /** RSA 3072 or 4096, or an elliptic-curve key, with a subkey that can encrypt. */
  strong: boolean
}

/** Parses an armored public key within the bounds; undefined when it is not one. */
export const inspectPublicKey = async (armored: unknown): Promise<PublicKeyFacts | undefined> => {
  if (typeof armored !== 'string' || armored.length > MAX_ARMORED_PUBLIC_KEY) return undefined
  let key: openpgp.Key
  try {
    if (readPackets(dearmor(armored, 'PUBLIC KEY BLOCK')).length > MAX_KEY_PACKETS) return undefined
    key = await openpgp.readKey({ armoredKey: armored, config })
  } catch {
    return undefined
  }
  if (key.isPrivate()) return undefined
  const { algorithm, bits } = key.getAlgorithmInfo()
  const rsa = algorithm.startsWith('rsa')
  const strong =
    (rsa
      ? bits === 3072 || bits === 4096
      : ['eddsaLegacy', 'ed25519', 'ecdsa'].includes(algorithm)) &&
    (await key.getEncryptionKey().then(
      () => true,
      () => false,
    ))
  const revoked = await key.isRevoked(undefined, undefined, new Date())
  let expires = false
  try {
    const expiration = await key.getExpirationTime()
    expires = expiration !== Infinity && expiration !== null
  } catch {
    // A revoked key has no expiration time to read; revocation is reported on its own.
  }
  return { fingerprint: key.getFingerprint().toUpperCase(), revoked, expires, strong }
}

/**
 * Whether an armored message is encrypted to the given public key and to nothing else: every
 * recipient is the key or one of its subkeys. Malformed or oversized data is not.
 */
export const isAddressedOnlyTo = (
  message: unknown,
  armoredKey: string,
  maxArmored: number,
): boolean => {
  if (typeof message !== 'string' || message.length > maxArmored) return false
  try {
    const recipients = messageRecipients(message)
    const keyIds = new Set(publicKeyIds(armoredKey))
    return recipients.length > 0 && recipients.every((recipient) => keyIds.has(recipient))
  } catch {
    // Hostile bytes are refused, whatever part of the reader they trip.
    return false
  }
}
