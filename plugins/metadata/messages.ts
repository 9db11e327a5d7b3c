// Messages of the metadata routes, word for word as the clients know them.
export const messages = {
  settingsValidation: 'Could not validate the settings.',
  settingRequired: 'The setting is required.',
  settingBoolean: 'The setting should be a valid boolean.',
  settingVersion: 'The setting should be one of the following: v4, v5.',
  defaultMustBeEnabled: 'The content type needs to be enabled in order to be set as default.',
  bothDisabled: 'Both v4 and v5 settings cannot be disabled.',
  noActiveKey:
    'Unable to save the metadata settings. An active metadata key could not be found, create a key first.',
  serverKeyRequired: 'The metadata private keys is required.',
  serverKeyOne: 'Need at most one metadata private key.',
  serverKeyUserNull: 'The user identifier should be null.',
  keyValidation: 'The metadata key could not be saved.',
  keyNotFound: 'The metadata key does not exist or has been deleted.',
  keyAlreadyDeleted: 'The metadata key has already been deleted.',
  keyAlreadyExpired: 'The metadata key is already marked as expired.',
  keyNotExpired: 'The metadata key should be marked as expired first.',
  keyInUse: 'The metadata key is still in use, migrate the remaining items to the new key first.',
  keyInvalidId: 'The metadata key identifier should be a valid UUID.',
  keyUpdateValidation: 'The metadata key could not be updated.',
  fingerprintRequired: 'A fingerprint is required.',
  fingerprintInvalid: 'The fingerprint should be a valid alphanumeric string.',
  fingerprintMismatch: 'The fingerprint does not match the armored key.',
  fingerprintUsed: 'The fingerprint is already in use.',
  twoActive: 'Already two metadata keys are active.',
  serverKeyReused: 'You cannot reuse the server keys.',
  userKeyReused: 'You cannot reuse the user key.',
  armoredKeyInvalid: 'The armored key is not valid.',
  armoredKeyNotRevoked: 'The armored key should be revoked.',
  expiredRequired: 'A expired date is required.',
  expiredInPast: 'The expired date should be in the past.',
  privateKeysRequired: 'Need at least one metadata private key.',
  privateKeyValidation: 'The metadata private key could not be validated.',
  privateKeysValidation: 'The metadata private keys could not be created.',
  privateKeyNotFound: 'The metadata private key does not exist or has been deleted.',
  privateKeyAlreadyEdited: 'The metadata private key was already edited by the user.',
  privateKeyShared: 'The metadata key is already shared with the user.',
  privateKeyComboUsed: 'The metadata key id & user id combination is already in use.',
  privateKeyUserInactive: 'The user does not exist or is not active or is deleted.',
  privateKeyWrongRecipient:
    'The data is not valid. Please make sure it is encrypted for the correct key.',
  privateKeyInvalidData: 'The request data is invalid.',
  serverCopyZeroKnowledge:
    'The server cannot hold a copy of a metadata private key in zero-knowledge mode.',
  serverCopyUnreadable:
    'The data is not valid. The server copy should be signed by its writer and contain the private key of this metadata key.',
  sessionKeyInvalidId: 'The metadata session key identifier should be a UUID.',
  sessionKeyNotFound: 'The metadata session key does not exist or does not belong to this user.',
  sessionKeyIdentical: 'The metadata session key data is identical.',
  sessionKeyChanged: 'The metadata session key data has changed.',
  sessionKeyValidation: 'The metadata session key could not be saved.',
  dataValidation: 'Could not validate the data.',
  missingKeyIdsAdminOnly:
    'The missing_metadata_key_ids contain is only allowed for administrators.',
}

/** Messages of the v5 item rules, the same for resources and folders. */
export const itemMessages = {
  fewV5Fields: 'Few fields are missing for the V5.',
  v4FieldsInV5: 'V4 related fields are not supported for V5.',
  metadataUndecryptable: 'The resource metadata provided can not be decrypted.',
  metadataKeyExists: 'The metadata key does not exist.',
  metadataKeyExpired: 'The metadata key is expired.',
  personalKeysRefused:
    'The settings selected by your administrator prevent from using personal keys.',
}
