// What the metadata routes answer until encrypted metadata is built: every item type is v4
// (clear metadata), no metadata key exists, and nothing prompts an administrator to set one up.

export const METADATA_TYPES_SETTINGS = {
  default_resource_types: 'v4',
  default_folder_type: 'v4',
  default_tag_type: 'v4',
  default_comment_type: 'v4',
  allow_creation_of_v5_resources: false,
  allow_creation_of_v5_folders: false,
  allow_creation_of_v5_tags: false,
  allow_creation_of_v5_comments: false,
  allow_creation_of_v4_resources: true,
  allow_creation_of_v4_folders: true,
  allow_creation_of_v4_tags: true,
  allow_creation_of_v4_comments: true,
  allow_v5_v4_downgrade: false,
  allow_v4_v5_upgrade: false,
} as const

export const METADATA_KEYS_SETTINGS = {
  allow_usage_of_personal_keys: true,
  zero_knowledge_key_share: false,
} as const

export const METADATA_SETUP_SETTINGS = { enable_encrypted_metadata_on_install: false } as const

export const METADATA_GETTING_STARTED = { enabled: false } as const
