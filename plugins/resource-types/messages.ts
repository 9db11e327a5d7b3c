// Messages of the resource types routes, word for word as the clients know them.
export const messages = {
  notFound: 'The resource type does not exist.',
  invalidId: 'The resource identifier should be a valid UUID.',
  alreadyDeleted: 'The resource type is already deleted.',
  notDeleted: 'The resource type is not deleted.',
  lastOfDefaultVersion: 'You cannot delete the last resource type of the default version.',
  lastOne: 'You cannot delete the last resource type available.',
  stillUsed: 'The resource type can not be deleted as resources of this type still exist.',
  deletedMustBeNull: 'The deleted field must be set to null.',
  onlyDeleted: 'It is not allowed to update these resource type properties.',
  emptyBody: 'The request data can not be empty.',
}
