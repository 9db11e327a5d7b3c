// Messages of the JWT routes, word for word as the clients know them.
export const messages = {
  success: 'The authentication was a success.',
  credentialsMissing: 'The authentication failed. The credentials are missing.',
  credentialsInvalid: 'The credentials are invalid.',
  userNotFound: 'The user does not exist or is not active or has been deleted.',
  noRefreshToken: 'No active refresh token matching the request could be found.',
  refreshReplayed: 'The refresh token provided was already used.',
  refreshExpired: 'Expired refresh token provided.',
  refreshUuid: 'The refresh token should be a valid UUID.',
  userUuid: 'The user ID should be a valid UUID.',
  alertSubject: 'Authentication security alert',
}
