// OAuth2 client credentials for Microsoft 365 (Exchange Online) SMTP: an access token from the
// tenant's token endpoint, sent as XOAUTH2 instead of a password, kept until shortly before it
// expires.
import { messages } from './messages.ts'

export interface OauthCredentials {
  tenant_id: string
  client_id: string
  client_secret: string
}

const SCOPE = 'https://outlook.office365.com/.default'

/** Microsoft's token endpoint for a tenant. */
export const microsoftTokenUrl = (tenantId: string) =>
  `https://login.microsoftonline.com/${encodeURIComponent(tenantId)}/oauth2/v2.0/token`

export class OauthTokenError extends Error {
  override name = 'OauthTokenError'
}

interface Token {
  value: string
  expires: number
}

/** Fetches and remembers access tokens, one per tenant and client. */
export class OauthTokens {
  private readonly tokens = new Map<string, Token>()

  constructor(private readonly tokenUrl: (tenantId: string) => string = microsoftTokenUrl) {}

  async get(credentials: OauthCredentials): Promise<string> {
    const key = `${credentials.tenant_id}|${credentials.client_id}|${credentials.client_secret}`
    const cached = this.tokens.get(key)
    if (cached && cached.expires > Date.now()) return cached.value
    let response: Response
    try {
      response = await fetch(this.tokenUrl(credentials.tenant_id), {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({
          grant_type: 'client_credentials',
          client_id: credentials.client_id,
          client_secret: credentials.client_secret,
          scope: SCOPE,
        }),
        signal: AbortSignal.timeout(15_000),
      })
    } catch (error) {
      throw new OauthTokenError(messages.tokenFailed, { cause: error })
    }
    const body = (await response.json().catch(() => ({}))) as {
      access_token?: unknown
      expires_in?: unknown
    }
    if (!response.ok) throw new OauthTokenError(messages.tokenFailed)
    if (typeof body.access_token !== 'string' || !body.access_token)
      throw new OauthTokenError(messages.tokenMissing)
    const seconds = typeof body.expires_in === 'number' ? body.expires_in : 3600
    // Renewed a minute early, so a mail never goes out with a token about to lapse.
    this.tokens.set(key, { value: body.access_token, expires: Date.now() + (seconds - 60) * 1000 })
    if (this.tokens.size > 100) this.tokens.delete(this.tokens.keys().next().value as string)
    return body.access_token
  }
}
