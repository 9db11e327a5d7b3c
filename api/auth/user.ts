// The caller as the core knows it once an authenticator has recognised them.
export interface AuthUser {
  id: string
  username: string
  role: 'admin' | 'user' | 'guest'
}
