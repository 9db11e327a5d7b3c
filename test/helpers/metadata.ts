// Encrypted metadata for tests, as the official extension makes it: a metadata key pair, the
// copies of its private part encrypted to each user (or the server), and v5 metadata.
import * as openpgp from 'openpgp'
import type { TestApi } from './api.ts'
import { encryptFor, type Member } from './vault.ts'

export interface MetadataKey {
  privateKey: openpgp.PrivateKey
  publicKey: openpgp.Key
  armoredPublicKey: string
  armoredPrivateKey: string
  fingerprint: string
}

export const generateMetadataKey = async (): Promise<MetadataKey> => {
  const { privateKey, publicKey } = await openpgp.generateKey({
    type: 'ecc',
    curve: 'curve25519Legacy',
    userIDs: [{ name: 'Passbolt Metadata Key', email: 'no-reply@keyward.test' }],
    format: 'object',
  })
  return {
    privateKey,
    publicKey,
    armoredPublicKey: publicKey.armor(),
    armoredPrivateKey: privateKey.armor(),
    fingerprint: publicKey.getFingerprint().toUpperCase(),
  }
}

/** The extension's cleartext of a private key copy. */
export const privateKeyText = (key: MetadataKey) =>
  JSON.stringify({
    object_type: 'PASSBOLT_METADATA_PRIVATE_KEY',
    domain: 'https://keyward.test',
    fingerprint: key.fingerprint,
    armored_key: key.armoredPrivateKey,
    passphrase: '',
  })

/** A copy of the key's private part for these recipients (a user, or the server key). */
export const privateKeyCopy = (
  key: MetadataKey,
  recipients: { publicKey: openpgp.Key }[],
  signer?: Member,
) => encryptFor(privateKeyText(key), recipients, signer)

export const serverRecipient = (api: TestApi) => ({ publicKey: api.app.serverKey.publicKey })

/** Creates a metadata key as the administrator, with a copy for them and one for the server. */
export const createMetadataKey = async (api: TestApi, admin: Member, key: MetadataKey) => {
  const response = await admin.client.json('/metadata/keys.json', 'POST', {
    fingerprint: key.fingerprint,
    armored_key: key.armoredPublicKey,
    metadata_private_keys: [
      { user_id: admin.id, data: await privateKeyCopy(key, [admin], admin) },
      { user_id: null, data: await privateKeyCopy(key, [serverRecipient(api)], admin) },
    ],
  })
  if (response.status !== 200) throw new Error(`metadata key refused: ${response.text}`)
  return response.json.body.id as string
}

/** The key's public part, revoked, as the extension sends it to expire the key. */
export const revokedPublicKey = async (key: MetadataKey) =>
  (await openpgp.revokeKey({ key: key.privateKey, format: 'object' })).publicKey.armor()

/** v5 resource metadata as the extension encrypts it. */
export const resourceMetadata = (
  typeId: string,
  fields: { name: string; username?: string; uris?: string[] },
  recipient: { publicKey: openpgp.Key },
) =>
  encryptFor(
    JSON.stringify({
      object_type: 'PASSBOLT_RESOURCE_METADATA',
      resource_type_id: typeId,
      name: fields.name,
      username: fields.username ?? null,
      uris: fields.uris ?? [],
      description: null,
    }),
    [recipient],
  )

/** Settings allowing v5 items (after a metadata key exists), written as an administrator. */
export const V5_SETTINGS = {
  default_resource_types: 'v5',
  default_folder_type: 'v5',
  default_tag_type: 'v5',
  default_comment_type: 'v5',
  allow_creation_of_v5_resources: true,
  allow_creation_of_v5_folders: true,
  allow_creation_of_v5_tags: true,
  allow_creation_of_v5_comments: true,
  allow_creation_of_v4_resources: true,
  allow_creation_of_v4_folders: true,
  allow_creation_of_v4_tags: true,
  allow_creation_of_v4_comments: true,
  allow_v5_v4_downgrade: false,
  allow_v4_v5_upgrade: true,
}
