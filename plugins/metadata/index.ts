// Metadata: encrypted metadata (v5) for the whole organisation. The settings every client reads
// after sign-in, the organisation's metadata keys with each user's encrypted copy of their
// private part, and each user's cache of session keys. The server never decrypts any of it: it
// checks who each message is addressed to. Items use these through the exported checks.
import { definePlugin } from '../../api/plugin.ts'
import { userActivation, userDeletion, userDirectory } from '../users/index.ts'
import { missingMetadataKeyIds } from './missing-keys.ts'
import { deleteCopiesOfUser } from './private-keys.ts'
import { routes } from './routes.ts'
import { shareMetadataKeysWithNewUser } from './share-on-setup.ts'

export {
  type BatchKind,
  type BatchRow,
  type BatchTarget,
  defineMetadataBatchRoutes,
} from './batch-routes.ts'
export { METADATA_KEYS_SETTINGS, METADATA_TYPES_SETTINGS } from './defaults.ts'
export {
  checkItemMetadata,
  type ItemMetadata,
  MAX_METADATA_ARMORED,
  payloadIsV5,
  v5Fields,
} from './items.ts'
export { itemMessages } from './messages.ts'
export {
  type MetadataKeysSettings,
  type MetadataTypesSettings,
  metadataKeysSettings,
  metadataTypesSettings,
} from './settings.ts'

export default definePlugin({
  name: 'metadata',
  tables: ['metadata_keys', 'metadata_private_keys', 'metadata_session_keys'],
  dependsOn: ['settings', 'users'],
  routes,
  settings: () => ({
    user: {
      metadata: { enabled: true, version: '1.0.0', isInBeta: false, autoSetupClientSide: false },
    },
  }),
  extensions: [
    userActivation.provide({
      activated: async ({ em, userId }, app) => {
        const { failed } = await shareMetadataKeysWithNewUser(em, app, userId)
        // The user goes without those keys until an administrator shares them from the
        // extension (they show in `missing_metadata_key_ids`).
        for (const { metadataKeyId, reason } of failed)
          app.logger.error(
            { userId, metadataKeyId, reason },
            'the server could not share a metadata key with a new user',
          )
      },
    }),
    userDirectory.provide({ contains: { missing_metadata_key_ids: missingMetadataKeyIds } }),
    userDeletion.provide({
      cleanup: async (em, subject) => {
        if (subject.kind === 'User') await deleteCopiesOfUser(em, subject.id)
      },
    }),
  ],
})
