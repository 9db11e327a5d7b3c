// Messages of the self-registration routes, word for word as passbolt's.
export const messages = {
  invalidSettings: 'Could not validate the self registration settings.',
  providerUnknown: 'The provider should be part of the supported list: email_domains.',
  domainsEmpty: 'The list of allowed domains should not be empty.',
  domainInvalid: (index: number) => `The domain #${index} should be a valid domain.`,
  invalidId: 'The self registration setting id should be a valid UUID.',
  settingNotFound: 'The self registration setting does not exist.',
  disabled: 'The self registration is disabled.',
  invalidData: 'The self registration data could not be validated.',
  domainRefused: 'The domain is not supported for self-registration.',
  alreadyRegistered: 'The email is already registered.',
  notOpen: 'Registration is not opened to public. Please contact your administrator.',
  guestsOnly: 'Only guests are allowed to register.',
  invalidUser: 'Could not validate user data.',
}
