// Messages of the share routes, word for word as the clients know them.
export const messages = {
  validation: 'Could not validate resource data.',
  notAllowed: 'You are not authorized to share this resource.',
  keyType: 'Resource metadata key type is invalid.',
  secretsProvided: 'The secrets of all the users having access to the resource are required.',
  accessDenied: 'Access denied.',
  invalidId: 'The resource identifier should be a valid UUID.',
  secretUserUuid: 'The user identifier should be a valid UUID.',
  secretUserRequired: 'A user identifier is required.',
  secretRequired: 'A message is required.',
  secretEmpty: 'The message should not be empty.',
}
