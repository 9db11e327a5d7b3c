// What the users plugin answers, word for word as passbolt's users controllers do where they
// have a message, so the clients show the same text.
export const messages = {
  userValidation: 'Could not validate user data.',
  invalidId: 'The user identifier should be a valid UUID.',
  invalidIdOrMe: 'The user identifier should be a valid UUID or "me".',
  notAuthorized: 'You are not authorized to access that location.',
  notFound: 'The user does not exist.',
  editNotFound: 'The user does not exist or has been deleted.',
  noData: 'Some user data should be provided.',
  gpgkeyUpdate: 'Updating the OpenPGP key is not allowed.',
  groupsUpdate: 'Updating the groups is not allowed.',
  roleForbidden: 'You are not authorized to edit the role.',
  roleUnknown: 'The role does not exist.',
  roleGuest: 'The role should not be guest.',
  updated: 'The user has been updated successfully.',
  lastAdmin: 'At least one active administrator is required.',
  hasAccessMany: 'Multiple has-access filters are not supported.',
  deleteSelf: 'You are not allowed to delete yourself.',
  deleteNotFound: 'The user does not exist or has been already deleted.',
  cannotDelete: 'The user cannot be deleted.',
  soleOwner:
    'The user should not be sole owner of shared content, transfer the ownership to other users.',
  soleManager:
    'The user should not be sole group manager of group(s), transfer the management to other users.',
  canBeDeleted: 'The user can be deleted.',
  deleted: 'The user has been deleted successfully.',
} as const
