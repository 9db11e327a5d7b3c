// Messages of the e-mail notification settings routes, word for word as passbolt's.
export const messages = {
  invalid: 'The supplied email notification settings are not valid',
  notBoolean: 'An email notification setting should be a boolean.',
  updated: 'The notification settings for the organization were updated.',
}
