// The error catalogue: typed HTTP errors whose message and body reach the client in the
// passbolt envelope. Anything else thrown is a 500 with a generic message.

/** Messages the official clients know, word for word. */
export const messages = {
  authenticationRequired: 'Authentication is required to continue',
  adminOnly: 'Access restricted to administrators.',
  notFound: 'Not Found',
  methodNotAllowed: 'Method Not Allowed',
  httpsRequired: 'This server is reached over HTTPS only.',
  internal: 'An Internal Error Has Occurred.',
  malformedJson: 'The request body is not valid JSON.',
  nulCharacter: 'The request holds a null character (U+0000), which cannot be stored.',
  unsupportedMediaType: 'The request content type is not supported. Use application/json.',
  bodyTooLarge: 'The request body is too large.',
  emptyBody: 'The request data can not be empty.',
  apiV1: 'API v1 support is deprecated in this version.',
  validation: 'Could not validate the request data.',
  databaseUnavailable: 'The service is unavailable for a moment. Please try again.',
  concurrentChange: 'The data was changed by another request at the same time. Please try again.',
  jwtRouteRefused: (route: string) =>
    `The route ${route} is not permitted with JWT authentication.`,
  reservedKey: (key: string) => `The request holds a key named ${key}, which is not accepted.`,
  modelNotFound: (model: string) => `The ${model} does not exist.`,
  invalidUuid: (model: string) => `The ${model} identifier should be a valid UUID.`,
} as const

export class HttpError extends Error {
  override name = 'HttpError'
  constructor(
    readonly status: number,
    message: string,
    /** Detail sent as the envelope body (validation trees); `""` when absent, as passbolt does. */
    readonly body: unknown = '',
    readonly headers: Record<string, string> = {},
  ) {
    super(message)
  }
}

export const badRequest = (message: string, body?: unknown) => new HttpError(400, message, body)
export const unauthorized = () => new HttpError(401, messages.authenticationRequired)
export const forbidden = (message: string = messages.adminOnly) => new HttpError(403, message)
export const notFound = (model?: string) =>
  new HttpError(404, model ? messages.modelNotFound(model) : messages.notFound)
