// OpenPGP data from clients is untrusted: its armored size is bounded before it is parsed, and
// what a compressed packet may expand to is bounded while it is parsed or decrypted (a 1 KB
// message can otherwise inflate to gigabytes). Every read of client OpenPGP data goes here.
import * as openpgp from 'openpgp'

/** Largest armored message a client may send where the server reads or decrypts it. */
export const MAX_ARMORED_MESSAGE = 100_000

/** What a compressed packet may expand to: far above any token, challenge or metadata. */
export const MAX_DECOMPRESSED_BYTES = 1024 * 1024

const config = { maxDecompressedMessageSize: MAX_DECOMPRESSED_BYTES }

export class UntrustedMessageError extends Error {
  override name = 'UntrustedMessageError'
}

/** Parses an armored message within the bounds; throws UntrustedMessageError otherwise. */
export const readClientMessage = async (
  armored: string,
  maxArmored = MAX_ARMORED_MESSAGE,
): Promise<openpgp.Message<Uint8Array | string>> => {
  if (typeof armored !== 'string' || armored.length > maxArmored)
    throw new UntrustedMessageError('the message is too large')
  try {
    return await openpgp.readMessage({ armoredMessage: armored, config })
  } catch (error) {
    throw new UntrustedMessageError(`the message does not parse: ${(error as Error).message}`)
  }
}

export interface DecryptOptions {
  decryptionKeys: openpgp.PrivateKey
  verificationKeys?: openpgp.Key
  expectSigned?: boolean
  maxArmored?: number
}

/**
 * Decrypts (and, when asked, verifies) a client message within the bounds. Throws
 * UntrustedMessageError for anything malformed, oversized or wrongly signed.
 */
export const decryptClientMessage = async (armored: string, options: DecryptOptions) => {
  const message = await readClientMessage(armored, options.maxArmored)
  try {
    const { data } = await openpgp.decrypt({
      message,
      decryptionKeys: options.decryptionKeys,
      ...(options.verificationKeys
        ? { verificationKeys: options.verificationKeys, expectSigned: options.expectSigned }
        : {}),
      config,
    })
    return String(data)
  } catch (error) {
    throw new UntrustedMessageError((error as Error).message)
  }
}
