// Permission levels and the kinds of items and holders permissions name.

/** passbolt's numbers: each level includes the ones below it. */
export const READ = 1
export const UPDATE = 7
export const OWNER = 15

export type Level = typeof READ | typeof UPDATE | typeof OWNER
export const LEVELS: readonly Level[] = [READ, UPDATE, OWNER]

/** What a permission is on (access control object). */
export type Aco = 'Resource' | 'Folder'

/** Who a permission is for (access request object). */
export type Aro = 'User' | 'Group'
