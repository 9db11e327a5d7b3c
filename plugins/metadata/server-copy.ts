// The server's own copy of a metadata private key, read as passbolt reads it before passing it
// on: decrypted with the server key, its signature checked against whoever wrote it (the server
// key when the server did), and its clear text checked to be the private half of that metadata
// key. The same reading refuses a copy as it is written and before it is given to a new user.
import * as openpgp from 'openpgp'
import type { AppContext } from '../../api/app.ts'
import { decryptClientMessage, MAX_DECOMPRESSED_BYTES } from '../../api/openpgp-input.ts'
import { MAX_ARMORED_PRIVATE_KEY_MESSAGE } from './openpgp-checks.ts'

/** What a metadata private key copy decrypts to (the clients' `PASSBOLT_METADATA_PRIVATE_KEY`). */
const PRIVATE_KEY_OBJECT = 'PASSBOLT_METADATA_PRIVATE_KEY'

export class MetadataKeyShareError extends Error {
  override name = 'MetadataKeyShareError'
}

/**
 * The clear text of a copy, checked: a JSON object of the metadata private key type whose
 * armored key is the private half of the metadata key it belongs to.
 */
const assertPrivateKeyOf = async (clear: string, fingerprint: string) => {
  let data: unknown
  try {
    data = JSON.parse(clear)
  } catch {
    throw new MetadataKeyShareError('the server copy is not JSON')
  }
  const { object_type, armored_key } = (data ?? {}) as Record<string, unknown>
  if (object_type !== PRIVATE_KEY_OBJECT || typeof armored_key !== 'string')
    throw new MetadataKeyShareError('the server copy is not a metadata private key')
  const key = await openpgp
    .readPrivateKey({
      armoredKey: armored_key,
      config: { maxDecompressedMessageSize: MAX_DECOMPRESSED_BYTES },
    })
    .catch(() => undefined)
  if (!key || key.getFingerprint().toUpperCase() !== fingerprint.toUpperCase())
    throw new MetadataKeyShareError('the server copy is not the private half of its metadata key')
}

/**
 * Decrypts a server copy and checks it; answers its clear text. `signerKey` is the armored key
 * of the user who wrote it, or null when the server did. Throws MetadataKeyShareError or
 * UntrustedMessageError (never with key material in the message).
 */
export const readServerCopy = async (
  app: AppContext,
  data: string,
  signerKey: string | null,
  fingerprint: string,
) => {
  const clear = await decryptClientMessage(data, {
    decryptionKeys: app.serverKey.privateKey,
    verificationKeys: signerKey
      ? await openpgp.readKey({ armoredKey: signerKey }).catch(() => {
          throw new MetadataKeyShareError('the key of whoever wrote the server copy is unreadable')
        })
      : app.serverKey.publicKey,
    expectSigned: true,
    maxArmored: MAX_ARMORED_PRIVATE_KEY_MESSAGE,
  })
  await assertPrivateKeyOf(clear, fingerprint)
  return clear
}
