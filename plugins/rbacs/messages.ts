// Messages of the UI rights routes, as passbolt words them.
export const messages = {
  denied: 'You are not authorized to access that location.',
  validation: 'The request data is invalid.',
  empty: 'The request data is empty.',
  uniqueIds: 'The request data is invalid: ids must be unique.',
  noneFound: 'No data found.',
  someNotFound: 'Some data not found.',
  notAllowed: 'This is not a valid setting.',
  functionNotAllowed: 'The control function is not allowed for this UI Action.',
}
