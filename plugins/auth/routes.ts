// Routes of the auth plugin (GPGAuth login lands with the authentication issue).
import { z } from 'zod'
import { defineRoute } from '../../api/plugin.ts'

export const routes = [
  defineRoute({
    method: 'GET',
    path: '/auth/verify.json',
    action: 'AuthVerify.verifyGet',
    summary: "The server's OpenPGP public key",
    auth: 'public',
    response: z.object({ fingerprint: z.string().regex(/^[0-9A-F]{40}$/), keydata: z.string() }),
    handler: ({ app }) => ({
      fingerprint: app.serverKey.fingerprint,
      keydata: app.serverKey.armoredPublicKey,
    }),
  }),
]
