// UUIDs as passbolt accepts them: any version, either case on input, lower case once stored.
export const UUID_SOURCE = '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}'

const UUID = new RegExp(`^${UUID_SOURCE}$`, 'i')

export const isUuid = (value: unknown): value is string =>
  typeof value === 'string' && UUID.test(value)
