// Messages of the password history routes, as passbolt words them.
export const messages = {
  validation: 'Could not validate the secret revisions settings.',
  maxRequired: 'The max revisions is required.',
  maxInteger: 'The max revisions should be a valid integer.',
  maxPositive: 'The max revisions should be greater than 0.',
  maxLimit: 'The max revisions should not exceed the max revisions limit set by the administrator.',
  sharingRequired: 'The allow sharing revisions is required.',
  sharingBoolean: 'The allow sharing revisions should be a valid boolean.',
  sharingDisabled: 'The allow sharing revisions is not enabled by the administrator.',
  invalidResourceId: 'The resource identifier should be a valid UUID.',
}
