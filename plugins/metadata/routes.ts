// Routes of the metadata plugin the clients read on every sign-in, answering the v4 defaults.
import { defineRoute } from '../../api/plugin.ts'
import {
  METADATA_GETTING_STARTED,
  METADATA_KEYS_SETTINGS,
  METADATA_SETUP_SETTINGS,
  METADATA_TYPES_SETTINGS,
} from './defaults.ts'

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
  constant(
    '/metadata/types/settings.json',
    'MetadataTypesSettingsGet.get',
    'Which item types (v4 clear, v5 encrypted metadata) clients create',
    'Always v4 for now: v4 is the default and the only type created, and no upgrade or downgrade is allowed.',
    METADATA_TYPES_SETTINGS,
  ),
  constant(
    '/metadata/keys/settings.json',
    'MetadataKeysSettingsGet.get',
    'How metadata keys are shared',
    'Personal keys allowed, no zero-knowledge key sharing (passbolt defaults).',
    METADATA_KEYS_SETTINGS,
  ),
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
