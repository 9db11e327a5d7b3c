// Messages of the GPGAuth and session routes, word for word as the clients know them (§4).
export const messages = {
  authFailed: 'The authentication failed.',
  loggedIn: 'You are successfully logged in.',
  loggedOut: 'You are successfully logged out.',
  alreadyLoggedIn: 'You are already logged in.',
  noUser: (reason: string) => `There is no user associated with this key. ${reason}`,
  noKeyId: 'No key id set.',
  invalidFingerprint: 'Invalid fingerprint.',
  userNotFound: 'User not found.',
  badVerifyToken: 'The server verify token is missing or invalid.',
  badUserToken: 'The user token result is missing or invalid.',
}
