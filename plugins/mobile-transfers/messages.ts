// Messages of the mobile transfer routes, as passbolt words them.
export const messages = {
  created: 'The operation was successful',
  validation: 'Could not validate the transfer data.',
  invalidId: 'The transfer id is not valid.',
  notFound: 'The transfer does not exist.',
  tokenNotUuid: 'The authentication token should be a valid uuid.',
  tokenInvalid: 'The authentication token is invalid.',
  notOwner: 'This operation is not allowed for this user.',
  tokenInactive: 'The authentication token is not active.',
  tokenExpired: 'The authentication token is expired.',
  restart: 'This operation is not allowed. Restarting a transfer is not allowed.',
  over: 'This operation is not allowed. The operation is already over.',
  notLastPage:
    'This operation is not allowed. The current page does not match the total number of pages.',
  hashRequired: 'The data transfer hash is required.',
  hashFormat: 'The hash should be a SHA-512 digest of 128 hexadecimal characters.',
  totalPagesRequired: 'The total number of pages is required.',
  totalPagesRange: 'The total number of pages should be between 1 and 65534.',
  currentPageRange: 'The current page should be a non negative integer below 65535.',
  currentPageTooBig:
    'The current page number should be equal or inferior to the total number of pages.',
  statusRequired: 'The status is required.',
  statusList:
    'The status must be one of the following: start, in progress, complete, cancel, error.',
}
