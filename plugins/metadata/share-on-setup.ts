// When a user completes their setup, the server gives them the metadata keys it holds a copy of,
// as passbolt 5 does outside zero-knowledge mode: it decrypts its own copy, checks who signed it
// and that it is the private half of that metadata key, and encrypts it to the user's new key,
// signed with the server key (the extension then re-signs it with the user's key on first use).
// In zero-knowledge mode the server holds no copy: the user's keys stay missing until an
// administrator shares them from the extension.
import type { EntityManager } from '@mikro-orm/postgresql'
import * as openpgp from 'openpgp'
import type { AppContext } from '../../api/app.ts'
import { UntrustedMessageError } from '../../api/openpgp-input.ts'
import { selectRows } from '../../api/orm.ts'
import { insertPrivateKeyCopies } from './keys.ts'
import { lockMetadataKeys } from './lock.ts'
import { MetadataKeyShareError, readServerCopy } from './server-copy.ts'
import { metadataKeysSettings } from './settings.ts'

interface ServerCopy {
  metadata_key_id: string
  fingerprint: string
  data: string
  /** The armored key of whoever last wrote the copy; null when the server did. */
  signer_key: string | null
  modified_by: string | null
}

/** The server's copies of live keys the user has none of, with who signed each. */
const serverCopiesMissingFor = (em: EntityManager, userId: string) =>
  selectRows<ServerCopy>(em, (knex) =>
    knex('metadata_private_keys as p')
      .join('metadata_keys as k', 'k.id', 'p.metadata_key_id')
      .leftJoin('gpgkeys as g', function () {
        this.on('g.user_id', 'p.modified_by').andOnVal('g.deleted', false)
      })
      .whereNull('p.user_id')
      .whereNull('k.deleted')
      .whereNotExists(
        knex('metadata_private_keys as mine')
          .whereRaw('mine.metadata_key_id = p.metadata_key_id')
          .where('mine.user_id', userId),
      )
      .orderBy('k.created')
      .select(
        'p.metadata_key_id',
        'k.fingerprint',
        'p.data',
        'p.modified_by',
        'g.armored_key as signer_key',
      ),
  )

/** One copy re-encrypted for the user, signed by the server. */
const reencrypt = async (
  app: AppContext,
  copy: ServerCopy,
  recipient: openpgp.Key,
): Promise<string> => {
  if (copy.modified_by !== null && copy.signer_key === null)
    throw new MetadataKeyShareError('the key of whoever wrote the server copy is gone')
  const clear = await readServerCopy(app, copy.data, copy.signer_key, copy.fingerprint)
  return openpgp.encrypt({
    message: await openpgp.createMessage({ text: clear }),
    encryptionKeys: recipient,
    signingKeys: app.serverKey.privateKey,
  })
}

export interface ShareOutcome {
  /** Keys the user now holds a copy of. */
  shared: string[]
  /** Keys whose server copy could not be given, and why (no key material in the reason). */
  failed: { metadataKeyId: string; reason: string }[]
}

/**
 * Gives a user who just completed their setup a copy of every live metadata key the server
 * holds one of. Does nothing in zero-knowledge mode (the server holds no copy) or before any
 * key exists. A copy that cannot be made (wrongly signed, not the key it claims) is reported,
 * and the others are still given.
 */
export const shareMetadataKeysWithNewUser = async (
  em: EntityManager,
  app: AppContext,
  userId: string,
): Promise<ShareOutcome> => {
  const outcome: ShareOutcome = { shared: [], failed: [] }
  if ((await metadataKeysSettings(em)).zero_knowledge_key_share) return outcome
  await lockMetadataKeys(em)
  const copies = await serverCopiesMissingFor(em, userId)
  if (copies.length === 0) return outcome
  const [user] = await selectRows<{ armored_key: string }>(em, (knex) =>
    knex('users')
      .join('gpgkeys', 'gpgkeys.user_id', 'users.id')
      .where({ 'users.id': userId, 'users.active': true, 'users.deleted': false })
      .where('gpgkeys.deleted', false)
      .select('gpgkeys.armored_key'),
  )
  if (!user) throw new MetadataKeyShareError('the user has no active key')
  const recipient = await openpgp.readKey({ armoredKey: user.armored_key })
  const made = []
  for (const copy of copies) {
    try {
      made.push({
        metadata_key_id: copy.metadata_key_id,
        user_id: userId,
        data: await reencrypt(app, copy, recipient),
      })
      outcome.shared.push(copy.metadata_key_id)
    } catch (error) {
      if (!(error instanceof MetadataKeyShareError || error instanceof UntrustedMessageError))
        throw error
      outcome.failed.push({ metadataKeyId: copy.metadata_key_id, reason: error.message })
    }
  }
  // Written by the server, not by a user: the extension sees the copy is not yet signed by its
  // owner and re-signs it (once) with their key.
  await insertPrivateKeyCopies(em, made, null)
  return outcome
}
