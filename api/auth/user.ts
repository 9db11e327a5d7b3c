// The caller as the core knows it once an authenticator has recognised them.
export interface AuthUser {
  id: string
  username: string
  role: 'admin' | 'user' | 'guest'
  /** How the caller proved who they are. */
  via?: 'session' | 'jwt' | 'test'
  /** Session id hash or access token hash, to bind MFA proofs to this sign-in. */
  signInId?: string
}
