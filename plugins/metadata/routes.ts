// Routes of the metadata plugin: the settings every client reads after sign-in (administrators
// change them), the organisation's metadata keys and each user's encrypted copies of them, and
// each user's cache of session keys.
import { z } from 'zod'
import { badRequest, HttpError } from '../../api/errors.ts'
import { defineRoute, type Route } from '../../api/plugin.ts'
import { writeOrganizationSetting } from '../settings/index.ts'
import { embeddedUsers } from '../users/index.ts'
import { METADATA_KEYS_SETTINGS, METADATA_TYPES_SETTINGS } from './defaults.ts'
import {
  createMetadataKey,
  deleteMetadataKey,
  expireMetadataKey,
  findMetadataKey,
  insertPrivateKeyCopies,
  keyJson,
  listMetadataKeys,
} from './keys.ts'
import { lockMetadataKeys } from './lock.ts'
import { messages } from './messages.ts'
import {
  checkPrivateKeyCopies,
  deleteServerCopies,
  findPrivateKeyCopy,
  ownPrivateKeys,
  privateKeyJson,
  updateOwnPrivateKey,
} from './private-keys.ts'
import {
  gettingStartedJson,
  keysSettingsJson,
  metadataKeyJson,
  privateKeyJson as privateKeySchema,
  sessionKeyJson,
  setupSettingsJson,
  typesSettingsJson,
} from './schemas.ts'
import {
  createSessionKey,
  deleteSessionKey,
  listSessionKeys,
  updateSessionKey,
} from './session-keys.ts'
import {
  encryptOnInstall,
  gettingStarted,
  KEYS_PROPERTY,
  metadataKeysSettings,
  metadataTypesSettings,
  parseKeysSettings,
  parseTypesSettings,
  saveTypesSettings,
} from './settings.ts'

const idParams = z.object({ id: z.string() })

const armoredMessage = z.string().meta({
  examples: ['-----BEGIN PGP MESSAGE-----\n\nwcFMA…\n-----END PGP MESSAGE-----\n'],
})

const privateKeyCopy = z.looseObject({
  metadata_key_id: z.uuid().optional(),
  user_id: z.uuid().nullable().optional(),
  data: armoredMessage.optional(),
})

// Checked field by field by the settings module, with passbolt's rule names and messages.
const typesSettingsBody = z
  .record(z.string(), z.unknown())
  .meta({ examples: [{ ...METADATA_TYPES_SETTINGS }] })

const keysSettingsBody = z
  .record(z.string(), z.unknown())
  .meta({ examples: [{ ...METADATA_KEYS_SETTINGS }] })

const keyCreateBody = z.looseObject({
  fingerprint: z.string().max(100).optional(),
  armored_key: z.string().optional(),
  metadata_private_keys: z.array(privateKeyCopy).max(10_000).optional(),
})

const keyExpireBody = z.looseObject({
  fingerprint: z.string().max(100).optional(),
  armored_key: z.string().optional(),
  expired: z
    .string()
    .max(64)
    .meta({ examples: ['2026-01-15T09:30:00+00:00'] })
    .optional(),
})

/** An administrator's settings change, on PUT and POST: the handler's caller is never missing. */
const settingsRoutes = <B extends z.ZodType>(
  path: string,
  action: string,
  summary: string,
  description: string,
  body: B,
  response: z.ZodType,
  handler: Route<z.ZodType, B, unknown, 'admin'>['handler'],
) =>
  (['PUT', 'POST'] as const).map((method) =>
    defineRoute({
      method,
      path,
      action,
      summary,
      description,
      auth: 'admin',
      // Administrators only, by auth.
      permission: 'none',
      body,
      response,
      transaction: true,
      handler,
    }),
  )

export const routes = [
  defineRoute({
    method: 'GET',
    path: '/metadata/types/settings.json',
    action: 'MetadataTypesSettingsGet.get',
    summary: 'Which item types (v4 clear, v5 encrypted metadata) clients create',
    description:
      'v4 by default: v4 is the default and the only type created, and no upgrade or downgrade is allowed, unless the organisation stored other settings.',
    auth: 'user',
    // The organisation's settings, the same for every user.
    permission: 'none',
    response: typesSettingsJson,
    handler: ({ em }) => metadataTypesSettings(em),
  }),
  ...settingsRoutes(
    '/metadata/types/settings.json',
    'MetadataTypesSettingsPost.post',
    'Choose which item types clients create',
    'Replaces the 14 settings, all required: the default version of resources, folders, tags and comments (which must be allowed), whether v4 and v5 may be created (not both off), and whether items may be upgraded or downgraded. Allowing v5 needs a live, unexpired metadata key.',
    typesSettingsBody,
    typesSettingsJson,
    async ({ em, body, user }) => {
      const settings = parseTypesSettings(body as Record<string, unknown>)
      await saveTypesSettings(em, settings, user.id)
      return settings
    },
  ),
  defineRoute({
    method: 'GET',
    path: '/metadata/keys/settings.json',
    action: 'MetadataKeysSettingsGet.get',
    summary: 'How metadata keys are shared',
    description:
      'Personal keys allowed, no zero-knowledge key sharing (passbolt defaults), unless the organisation stored other settings.',
    auth: 'user',
    // The organisation's settings, the same for every user.
    permission: 'none',
    response: keysSettingsJson,
    handler: ({ em }) => metadataKeysSettings(em),
  }),
  ...settingsRoutes(
    '/metadata/keys/settings.json',
    'MetadataKeysSettingsPost.post',
    'Choose how metadata keys are shared',
    'Replaces `allow_usage_of_personal_keys` and `zero_knowledge_key_share`, both required. Leaving zero-knowledge requires `metadata_private_keys` (ignored otherwise): one copy of the active metadata key encrypted to the server key (`user_id` null), signed by the caller; entering it deletes the server’s copies.',
    keysSettingsBody,
    keysSettingsJson,
    async ({ em, app, body, user }) => {
      const input = body as Record<string, unknown>
      const settings = parseKeysSettings(input)
      await lockMetadataKeys(em)
      const leaving =
        (await metadataKeysSettings(em)).zero_knowledge_key_share &&
        !settings.zero_knowledge_key_share
      if (settings.zero_knowledge_key_share) await deleteServerCopies(em)
      else if (leaving) {
        // As passbolt: the server gets its copy back in the same request, or new users would
        // silently go without the key. Outside this switch the field is ignored.
        const copies = input.metadata_private_keys
        if (copies === undefined || copies === null)
          throw badRequest(messages.settingsValidation, {
            metadata_private_keys: { _required: messages.serverKeyRequired },
          })
        if (!Array.isArray(copies) || copies.length !== 1)
          throw badRequest(messages.settingsValidation, {
            metadata_private_keys:
              Array.isArray(copies) && copies.length > 1
                ? { hasAtMost: messages.serverKeyOne }
                : { hasAtLeast: messages.privateKeysRequired },
          })
        if ((copies[0] as { user_id?: unknown }).user_id != null)
          throw badRequest(messages.settingsValidation, {
            metadata_private_keys: {
              0: { user_id: { onlyNullAllowed: messages.serverKeyUserNull } },
            },
          })
        const checked = await checkPrivateKeyCopies(em, app, copies, {
          requireKeyExists: true,
          writerId: user.id,
          zeroKnowledge: false,
        })
        if (checked.errors)
          throw badRequest(messages.settingsValidation, { metadata_private_keys: checked.errors })
        await insertPrivateKeyCopies(em, checked.valid, user.id)
      }
      await writeOrganizationSetting(em, KEYS_PROPERTY, settings, user.id)
      return settings
    },
  ),
  defineRoute({
    method: 'GET',
    path: '/metadata/setup/settings.json',
    action: 'MetadataSettingsSetup.get',
    summary: 'Whether the first administrator enables encrypted metadata at install',
    description:
      'True on a new organisation (its only account an active administrator) when the server starts organisations in v5: the extension then generates the metadata key and turns encrypted metadata on as setup completes.',
    auth: 'user',
    // The organisation's state, the same for every user.
    permission: 'none',
    response: setupSettingsJson,
    handler: async ({ em, app }) => ({
      enable_encrypted_metadata_on_install: await encryptOnInstall(em, app),
    }),
  }),
  defineRoute({
    method: 'GET',
    path: '/metadata/settings/getting-started.json',
    action: 'MetadataSettingsGetStarted.get',
    summary: 'Whether administrators are invited to choose an encrypted metadata strategy',
    description:
      'True while the organisation has neither metadata settings nor metadata keys, when the server starts organisations in v5.',
    auth: 'user',
    // The organisation's state, the same for every user.
    permission: 'none',
    response: gettingStartedJson,
    handler: async ({ em, app }) => ({ enabled: await gettingStarted(em, app) }),
  }),
  defineRoute({
    method: 'GET',
    path: '/metadata/keys.json',
    action: 'MetadataKeysIndex.index',
    summary: 'The organisation metadata keys',
    description:
      'Every metadata key’s public part; `contain[metadata_private_keys]` adds the caller’s own encrypted copies (never anyone else’s), `contain[creator]` and `contain[creator.profile]` who created it. `filter[deleted]` and `filter[expired]` keep keys that are (or are not) deleted, expired.',
    auth: 'user',
    // Public keys are for everyone; private copies are filtered to the caller's own.
    permission: 'none',
    query: {
      contain: { metadata_private_keys: {}, creator: {}, 'creator.profile': {} },
      filter: { deleted: 'boolean', expired: 'boolean' },
    },
    response: z.array(metadataKeyJson),
    handler: async ({ em, app, query, user }) => {
      const rows = await listMetadataKeys(em, {
        deleted: query.filter.deleted as boolean | undefined,
        expired: query.filter.expired as boolean | undefined,
      })
      const keys: Record<string, unknown>[] = rows.map(keyJson)
      if (query.contain.metadata_private_keys) {
        const own = await ownPrivateKeys(
          em,
          user.id,
          rows.map((row) => row.id),
        )
        for (const key of keys)
          key.metadata_private_keys = (own.get(key.id as string) ?? []).map(privateKeyJson)
      }
      if (query.contain.creator || query.contain['creator.profile']) {
        const creators = await embeddedUsers(
          em,
          rows.flatMap((row) => (row.created_by ? [row.created_by] : [])),
          { profile: Boolean(query.contain['creator.profile']), appUrl: app.config.appUrl },
        )
        for (const key of keys) key.creator = creators.get(key.created_by as string) ?? null
      }
      return keys
    },
  }),
  defineRoute({
    method: 'POST',
    path: '/metadata/keys.json',
    action: 'MetadataKeyCreate.create',
    summary: 'Create a metadata key',
    description:
      'Stores a new organisation metadata key: `fingerprint`, `armored_key` (an OpenPGP public key: RSA 3072/4096 or elliptic curve, not revoked, no expiry date, matching the fingerprint, not the server’s nor a user’s key) and `metadata_private_keys`, its private part encrypted to each recipient (`user_id`, or null for the server key) and to that recipient alone. The server copy is refused in zero-knowledge mode, and otherwise unless it is signed by the caller and decrypts to this key’s private half. At most two keys may be active.',
    auth: 'admin',
    // Administrators only, by auth.
    permission: 'none',
    body: keyCreateBody,
    response: metadataKeyJson,
    transaction: true,
    handler: async ({ em, app, body, user }) => {
      const id = await createMetadataKey(em, app, user.id, body)
      const key = keyJson((await findMetadataKey(em, id))!)
      const own = await ownPrivateKeys(em, user.id, [id])
      return { ...key, metadata_private_keys: (own.get(id) ?? []).map(privateKeyJson) }
    },
  }),
  ...(['PUT', 'POST'] as const).map((method) =>
    defineRoute({
      method,
      path: '/metadata/keys/{id}.json',
      action: 'MetadataKeyUpdate.update',
      summary: 'Expire a metadata key',
      description:
        'Marks a live key expired at `expired` (not in the future), replacing its public key with the revoked one the body carries (`armored_key`, with the key’s `fingerprint`). 404 for a key that does not exist or was deleted; 400 when it is already expired.',
      auth: 'admin',
      // Administrators only, by auth.
      permission: 'none',
      params: idParams,
      body: keyExpireBody,
      response: metadataKeyJson,
      transaction: true,
      handler: async ({ em, params, body, user }) => {
        await expireMetadataKey(em, params.id, user.id, body)
        return keyJson((await findMetadataKey(em, params.id.toLowerCase()))!)
      },
    }),
  ),
  defineRoute({
    method: 'DELETE',
    path: '/metadata/keys/{id}.json',
    action: 'MetadataKeyDelete.delete',
    summary: 'Delete a metadata key',
    description:
      'Deletes an expired key no live item is encrypted to any more, with every encrypted copy of its private part. 400 while it is not expired or still in use.',
    auth: 'admin',
    // Administrators only, by auth.
    permission: 'none',
    params: idParams,
    response: z.null(),
    transaction: true,
    handler: async ({ em, params, user }) => {
      await deleteMetadataKey(em, params.id, user.id)
      return null
    },
  }),
  defineRoute({
    method: 'POST',
    path: '/metadata/keys/{id}/private.json',
    action: 'MetadataPrivateKeysCreate.create',
    summary: 'Give a user a metadata private key',
    description:
      'Stores one copy of key `{id}`’s private part for `user_id` (an active user; null for the server key), encrypted to that recipient’s key alone; a server copy as when a key is created (none in zero-knowledge mode; signed by the caller, this key’s private half). 404 for a deleted key; 400 when the recipient already has it.',
    auth: 'admin',
    // Administrators only, by auth.
    permission: 'none',
    params: idParams,
    body: privateKeyCopy.omit({ metadata_key_id: true }),
    response: privateKeySchema,
    transaction: true,
    handler: async ({ em, app, params, body, user }) => {
      if (typeof body.data !== 'string') throw badRequest(messages.privateKeyInvalidData)
      await lockMetadataKeys(em)
      const key = await findMetadataKey(em, params.id.toLowerCase())
      if (!key || key.deleted) throw new HttpError(404, messages.keyNotFound)
      const copy = { ...body, metadata_key_id: key.id }
      const checked = await checkPrivateKeyCopies(em, app, [copy], {
        requireKeyExists: true,
        writerId: user.id,
      })
      if (checked.errors) {
        const errors = checked.errors[0] as Record<string, Record<string, string>>
        if (errors.user_id?._isUnique) throw badRequest(messages.privateKeyShared)
        throw badRequest(messages.privateKeyValidation, errors)
      }
      await insertPrivateKeyCopies(em, checked.valid, user.id)
      return privateKeyJson((await findPrivateKeyCopy(em, key.id, checked.valid[0].user_id))!)
    },
  }),
  ...(
    [
      ['POST', '/metadata/keys/privates.json'],
      ['PUT', '/metadata/keys/private.json'],
      ['POST', '/metadata/keys/private.json'],
    ] as const
  ).map(([method, path]) =>
    defineRoute({
      method,
      path,
      action: 'MetadataMissingPrivateKeysShare.share',
      summary: 'Give users the metadata private keys they lack',
      description:
        'Stores copies of metadata private keys for users who lack them: a list of `{metadata_key_id, user_id, data}`, each encrypted to that user’s key alone (a server copy as when a key is created). All or nothing: one refused entry (keyed by its index) stores none.',
      auth: 'admin',
      // Administrators only, by auth.
      permission: 'none',
      body: z.array(privateKeyCopy).max(10_000),
      response: z.array(z.unknown()).meta({ examples: [[]] }),
      transaction: true,
      handler: async ({ em, app, body, user }) => {
        if (body.length === 0) throw badRequest('The request data can not be empty.')
        await lockMetadataKeys(em)
        const checked = await checkPrivateKeyCopies(em, app, body, {
          requireKeyExists: true,
          writerId: user.id,
        })
        if (checked.errors) throw badRequest(messages.privateKeysValidation, checked.errors)
        await insertPrivateKeyCopies(em, checked.valid, user.id)
        return []
      },
    }),
  ),
  ...(['PUT', 'POST'] as const).map((method) =>
    defineRoute({
      method,
      path: '/metadata/keys/private/{id}.json',
      action: 'MetadataPrivateKeysUpdate.update',
      summary: 'Re-encrypt one’s own copy of a metadata private key',
      description:
        'The caller replaces their own copy (`data`, encrypted to their key alone), e.g. signed by themselves once they trust the key; once per copy. 404 for another user’s copy.',
      auth: 'user',
      // Only the caller's own copies are found: anyone else's is a 404.
      permission: 'none',
      params: idParams,
      body: z.looseObject({ data: armoredMessage.optional() }),
      response: privateKeySchema,
      transaction: true,
      handler: ({ em, params, body, user }) => updateOwnPrivateKey(em, user.id, params.id, body),
    }),
  ),
  defineRoute({
    method: 'GET',
    path: '/metadata/session-keys.json',
    action: 'MetadataSessionKeysGet.get',
    summary: 'The caller’s cached session keys',
    description: 'The caller’s own session-key bundles, each encrypted to their key.',
    auth: 'user',
    // Only the caller's own rows.
    permission: 'none',
    response: z.array(sessionKeyJson),
    handler: ({ em, user }) => listSessionKeys(em, user.id),
  }),
  defineRoute({
    method: 'POST',
    path: '/metadata/session-keys.json',
    action: 'MetadataSessionKeyCreate.create',
    summary: 'Cache session keys',
    description: 'Stores a bundle of session keys (`data`), encrypted to the caller’s key alone.',
    auth: 'user',
    // Only the caller's own rows.
    permission: 'none',
    body: z.looseObject({ data: armoredMessage.optional() }),
    response: sessionKeyJson,
    transaction: true,
    handler: ({ em, body, user }) => createSessionKey(em, user.id, body.data),
  }),
  ...(['PUT', 'POST'] as const).map((method) =>
    defineRoute({
      method,
      path: '/metadata/session-keys/{id}.json',
      action: 'MetadataSessionKeyUpdate.update',
      summary: 'Replace cached session keys',
      description:
        'Replaces the caller’s bundle with `data`, if it is still as `modified` says (to the second): 409 when another device changed it since, 400 when the data is the same, 404 for anyone else’s bundle.',
      auth: 'user',
      // Only the caller's own rows are found: anyone else's is a 404.
      permission: 'none',
      params: idParams,
      body: z.looseObject({
        data: armoredMessage.optional(),
        modified: z
          .string()
          .max(64)
          .meta({ examples: ['2026-01-15T09:30:00+00:00'] })
          .optional(),
      }),
      response: sessionKeyJson,
      transaction: true,
      handler: ({ em, params, body, user }) => updateSessionKey(em, user.id, params.id, body),
    }),
  ),
  defineRoute({
    method: 'DELETE',
    path: '/metadata/session-keys/{id}.json',
    action: 'MetadataSessionKeyDelete.delete',
    summary: 'Forget cached session keys',
    description: 'Deletes one of the caller’s bundles; 404 for anyone else’s.',
    auth: 'user',
    // Only the caller's own rows are found: anyone else's is a 404.
    permission: 'none',
    params: idParams,
    response: z.null(),
    transaction: true,
    handler: async ({ em, params, user }) => {
      await deleteSessionKey(em, user.id, params.id)
      return null
    },
  }),
]
