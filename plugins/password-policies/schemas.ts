// The password policy an administrator sets: which generator the clients offer first, their
// settings, and whether passwords are checked against known breaches. Bounds as the clients';
// fields the clients add (min_length, max_length, min_words, max_words) are dropped.
import { z } from 'zod'

export const passwordGeneratorSettings = z.object({
  length: z.int().min(8).max(128),
  mask_upper: z.boolean(),
  mask_lower: z.boolean(),
  mask_digit: z.boolean(),
  mask_parenthesis: z.boolean(),
  mask_emoji: z.boolean(),
  mask_char1: z.boolean(),
  mask_char2: z.boolean(),
  mask_char3: z.boolean(),
  mask_char4: z.boolean(),
  mask_char5: z.boolean(),
  exclude_look_alike_chars: z.boolean(),
})

export const passphraseGeneratorSettings = z.object({
  words: z.int().min(4).max(40),
  word_separator: z.string().max(10),
  word_case: z.enum(['lowercase', 'uppercase', 'camelcase']),
})

export const passwordPolicies = z.object({
  default_generator: z.enum(['password', 'passphrase']),
  external_dictionary_check: z.boolean(),
  password_generator_settings: passwordGeneratorSettings,
  passphrase_generator_settings: passphraseGeneratorSettings,
})

export type PasswordPolicies = z.output<typeof passwordPolicies>

/** passbolt's defaults, used until an administrator saves a policy. */
export const DEFAULT_PASSWORD_POLICIES: PasswordPolicies = {
  default_generator: 'password',
  external_dictionary_check: true,
  password_generator_settings: {
    length: 18,
    mask_upper: true,
    mask_lower: true,
    mask_digit: true,
    mask_parenthesis: true,
    mask_emoji: false,
    mask_char1: true,
    mask_char2: true,
    mask_char3: true,
    mask_char4: true,
    mask_char5: true,
    exclude_look_alike_chars: true,
  },
  passphrase_generator_settings: { words: 9, word_separator: ' ', word_case: 'lowercase' },
}
