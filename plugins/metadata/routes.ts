// Routes of the metadata plugin the clients read on every sign-in: the settings in force (v4
// defaults unless the organisation stored others) and no metadata key.
import { defineRoute } from '../../api/plugin.ts'
import { METADATA_GETTING_STARTED, METADATA_SETUP_SETTINGS } from './defaults.ts'
import { metadataKeysSettings, metadataTypesSettings } from './settings.ts'

const constant = (
  path: string,
  action: string,
  summary: string,
  description: string,
  body: object,
) =>
  defineRoute({
    method: 'GET',
    path,
    action,
    summary,
    description,
    auth: 'user',
    // The same defaults for every user.
    permission: 'none',
    handler: () => ({ ...body }),
  })

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
    handler: ({ em }) => metadataTypesSettings(em),
  }),
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
    handler: ({ em }) => metadataKeysSettings(em),
  }),
  constant(
    '/metadata/setup/settings.json',
    'MetadataSettingsSetup.get',
    'Whether the first administrator enables encrypted metadata at install',
    'False: encrypted metadata is not offered yet.',
    METADATA_SETUP_SETTINGS,
  ),
  constant(
    '/metadata/settings/getting-started.json',
    'MetadataSettingsGetStarted.get',
    'Whether administrators are invited to choose an encrypted metadata strategy',
    'False: encrypted metadata is not offered yet.',
    METADATA_GETTING_STARTED,
  ),
  defineRoute({
    method: 'GET',
    path: '/metadata/keys.json',
    action: 'MetadataKeysIndex.index',
    summary: 'The organisation metadata keys',
    description: 'An empty list: no metadata key exists until encrypted metadata is built.',
    auth: 'user',
    // No key exists, so there is nothing to restrict.
    permission: 'none',
    query: {
      contain: { metadata_private_keys: {}, creator: {}, 'creator.profile': {} },
      filter: { deleted: 'boolean', expired: 'boolean' },
    },
    handler: () => [],
  }),
]
