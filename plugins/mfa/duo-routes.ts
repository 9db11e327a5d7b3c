// Duo needs Duo's own servers and an application registered with them, which this server does
// not offer: each of passbolt's Duo routes answers 400 with a message saying so, in the
// envelope, so a client that still tries Duo learns why instead of meeting a missing route.
import { z } from 'zod'
import { HttpError } from '../../api/errors.ts'
import { defineRoute, type Method } from '../../api/plugin.ts'
import { messages } from './messages.ts'

const DUO_ROUTES: readonly [Method, string, string][] = [
  ['POST', '/mfa/setup/duo.json', 'DuoSetupPost.post'],
  ['DELETE', '/mfa/setup/duo.json', 'DuoSetupDelete.delete'],
  ['POST', '/mfa/setup/duo/prompt.json', 'DuoSetupPromptPost.post'],
  ['GET', '/mfa/setup/duo/callback.json', 'DuoSetupCallbackGet.get'],
  ['GET', '/mfa/verify/duo.json', 'DuoVerifyGet.get'],
  ['POST', '/mfa/verify/duo.json', 'DuoVerifyPost.post'],
  ['POST', '/mfa/verify/duo/prompt.json', 'DuoVerifyPromptPost.post'],
  ['GET', '/mfa/verify/duo/callback.json', 'DuoVerifyCallbackGet.get'],
]

export const duoRoutes = DUO_ROUTES.map(([method, path, action]) =>
  defineRoute({
    method,
    path,
    action,
    summary: 'Duo (not available on this server)',
    description:
      'Always 400: Duo is not offered. Organisations use time-based one-time passwords or Yubikey.',
    auth: 'public',
    // Nothing is read or written: every caller gets the same refusal.
    permission: 'none',
    // Duo's callbacks come from a browser redirect, without the CSRF header.
    csrf: false,
    response: z.null(),
    handler: () => {
      throw new HttpError(400, messages.duoUnavailable)
    },
  }),
)
