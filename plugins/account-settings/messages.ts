// Messages of the account settings plugin, as the official clients show them.
export const messages = {
  themeRequired: 'A value for the theme should be provided.',
  themeInvalid: 'This is not a valid theme.',
} as const
