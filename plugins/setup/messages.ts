// Messages of the setup and recovery routes, word for word as the clients know them.
export const messages = {
  setupCompleted: 'The setup was completed successfully.',
  recoveryCompleted: 'The recovery was completed successfully.',
  recoveryAborted: 'The recovery was aborted.',
  recoveryRequested: 'If the account exists, a recovery email was sent.',
  userAdded: 'The user was successfully added. This user now need to complete the setup.',
  guestsOnly: 'Only guests are allowed to complete setup.',
  invalidUser: 'The user identifier should be a valid UUID.',
  invalidToken: 'The authentication token should be a valid UUID.',
  userNotFound: 'The user does not exist or is already active or has been deleted.',
  activeUserNotFound: 'The user does not exist or is not active or has been deleted.',
  tokenExpired: 'The authentication token is not valid or has expired.',
  invalidKey: 'The OpenPGP key data is not valid.',
  keyInUse: 'This key is already used by another user.',
  keyMismatch: 'The key should match the account key.',
}
