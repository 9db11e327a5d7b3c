// Facts about the seeded resource types the API needs: which a community edition server does
// not list, which v5 type each v4 type upgrades to, and how a slug tells its metadata version.

export type MetadataVersion = 'v4' | 'v5'

/** Types the server keeps but does not list: none since passbolt 5.12 lists the TOTP types. */
export const UNLISTED_SLUGS: readonly string[] = []

export const V4_TO_V5: Readonly<Record<string, string>> = {
  'password-string': 'v5-password-string',
  'password-and-description': 'v5-default',
  totp: 'v5-totp-standalone',
  'password-description-totp': 'v5-default-with-totp',
}

export const versionOfSlug = (slug: string): MetadataVersion =>
  slug.startsWith('v5-') ? 'v5' : 'v4'

/** `password-string`: the type of a v4 resource created without one. */
export const DEFAULT_V4_TYPE_ID = '669f8c64-242a-59fb-92fc-81f660975fd3'

/**
 * `password-and-description`: its description travels inside the encrypted secret, so a clear
 * `description` sent with it is dropped rather than stored (as passbolt).
 */
export const PASSWORD_AND_DESCRIPTION_TYPE_ID = 'a28a04cd-6f53-518a-967c-9963bf9cec51'
