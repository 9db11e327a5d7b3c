// Messages of the SMTP settings routes, word for word as passbolt's where it has one.
export const messages = {
  invalid: 'Could not validate the smtp settings.',
  oauthFieldRequired: 'This field is required for OAuth2 authentication.',
  invalidClient: 'SMTP client should be a valid domain or IP address.',
  invalidHost: 'The host name should be a valid host name or IP address.',
  tokenFailed: 'Failed to obtain SMTP OAuth2 access token.',
  tokenMissing: 'SMTP OAuth2 token response from Microsoft did not contain an access token.',
  testSubject: 'Keyward test email',
  testText: (url: string) =>
    `This is a test email sent by Keyward (${url}) to check its SMTP settings.\n\nIf you can read this, your server can send email.\n`,
}
