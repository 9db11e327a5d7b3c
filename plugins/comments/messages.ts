// Messages of the comments routes, word for word as passbolt words them.
export const messages = {
  added: 'The comment was successfully added.',
  updated: 'The comment was successfully updated.',
  deleted: 'The comment was deleted.',
  validation: 'Could not validate comment data.',
  invalidId: 'The comment id is not valid.',
  invalidResourceId: 'The resource identifier should be a valid UUID.',
  invalidListId: 'Invalid id',
  noComments: 'Could not find comments for the requested model.',
  cannotEdit: 'You are not allowed to edit this comment.',
  contentRequired: 'A content is required',
  contentEmpty: 'The content should not be empty',
  contentLength: 'The content length should be between 1 and 255 characters.',
  contentUtf8: 'The content should be a valid UTF8 string.',
  parentUuid: 'The parent comment identifier should be a valid UUID.',
  parentExists: 'The parent comment does not exist.',
}
