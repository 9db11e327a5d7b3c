// Messages of the resources routes, word for word as the clients know them.
export const messages = {
  added: 'The resource has been added successfully.',
  updated: 'The resource has been updated successfully.',
  deleted: 'The resource has been deleted successfully.',
  invalidId: 'The resource identifier should be a valid UUID.',
  validation: 'Could not validate resource data.',
  cannotUpdate: 'You are not allowed to update this resource.',
  cannotDelete: 'You do not have the permission to delete this resource.',
  fewV5Fields: 'Few fields are missing for the V5.',
  v4FieldsInV5: 'V4 related fields are not supported for V5.',
  v4CreationRefused: 'Resource creation with cleartext metadata not allowed.',
  v5CreationRefused: 'Resource creation/modification with encrypted metadata not allowed.',
  upgradeRefused: 'The settings selected by your administrator prevent from upgrading v4 to v5.',
  downgradeRefused:
    'The settings selected by your administrator prevent from downgrading v5 to v4.',
  emptyBody: 'The request data can not be empty.',
  secretsEmpty: 'The secrets should not be empty.',
  secretsOwnerOnly: 'The secrets should contain only the secret of the owner.',
  secretsProvided:
    'The secrets should contain the secrets of all the users having access to the resource.',
  typeV4:
    'The resource type should be one of the following: password-string, password-and-description, totp, password-description-totp.',
  typeV5: 'The resource type should be one of the v5 resource types.',
  typeV5PasswordString: 'It is not allowed to create v5-password-string resource types.',
  typeExists: 'The resource type does not exist.',
  metadataUndecryptable: 'The resource metadata provided can not be decrypted.',
  metadataKeyExists: 'The metadata key does not exist.',
  metadataKeyExpired: 'The metadata key is expired.',
  personalKeysRefused:
    'The settings selected by your administrator prevent from using personal keys.',
  personalShared: 'A resource of type personal cannot be shared with other users or a group.',
  folderParentExists: 'The folder parent must exist.',
  parentReadOnly: 'You are not allowed to create content into the parent folder.',
  metadataKeyTypeFilter: (value: string) =>
    `Invalid filter. "${value}" is not a valid value for filter metadata_key_type.`,
}
