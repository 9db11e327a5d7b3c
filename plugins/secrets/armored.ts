// What the server checks of an encrypted secret it stores but never decrypts: an ASCII-armored
// OpenPGP message, within size, made of session keys encrypted to public keys and one
// integrity-protected encrypted data packet (nothing in clear), encrypted for its recipient.
import { messageRecipients, publicKeyIds, WILDCARD_KEY_ID } from '../../api/openpgp-packets.ts'

/** A password up to 4,096 characters or a 50,000-character note, encrypted for a few keys. */
export const MAX_SECRET_ARMORED = 150_000

export type SecretRule = 'ascii' | 'isValidOpenPGPMessage' | 'isEncryptedForRecipient'

export const SECRET_RULE_MESSAGES: Record<SecretRule, string> = {
  ascii: 'The message should be a valid ASCII string.',
  isValidOpenPGPMessage: 'The message should be a valid ASCII-armored OpenPGP message.',
  isEncryptedForRecipient: 'The message should be encrypted for the user it is for.',
}

/** Key ids (hex) a message for the holder of this armored public key may be encrypted to. */
export const recipientKeyIds = (armoredKey: string): Set<string> => {
  try {
    return new Set(publicKeyIds(armoredKey))
  } catch {
    return new Set()
  }
}

/** The rule the message breaks, or undefined when it is acceptable for `recipients`. */
export const checkArmoredSecret = (
  data: string,
  recipients?: Set<string>,
): SecretRule | undefined => {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: printable ASCII and line breaks only
  if (!/^[\x09\x0a\x0d\x20-\x7e]*$/.test(data)) return 'ascii'
  if (data.length > MAX_SECRET_ARMORED) return 'isValidOpenPGPMessage'
  let ids: string[]
  try {
    ids = messageRecipients(data)
  } catch {
    return 'isValidOpenPGPMessage'
  }
  if (recipients && !ids.some((id) => id === WILDCARD_KEY_ID || recipients.has(id)))
    return 'isEncryptedForRecipient'
  return undefined
}
