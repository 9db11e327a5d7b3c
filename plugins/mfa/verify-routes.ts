// MFA verification routes: the JSON endpoints, the HTML form, and the required-MFA error page
// (always 403 with the providers to use).
import { z } from 'zod'
import { assertCsrfToken, CSRF_COOKIE } from '../../api/auth/csrf.ts'
import { HttpError } from '../../api/errors.ts'
import { defineRoute, Reply } from '../../api/plugin.ts'
import { noBody } from '../../api/response-schemas.ts'
import { endSession } from '../auth/index.ts'
import { safeRedirect, verifyForm } from './form.ts'
import { messages } from './messages.ts'
import {
  type Input,
  isRemember,
  otpError,
  remember,
  totpCode,
  totpRule,
  yubikeyCode,
} from './otp.ts'
import {
  checkTotp,
  grantProof,
  hasValidProof,
  type Provider,
  readAccountMfa,
  readOrganizationMfa,
  recordFailure,
  userProviders,
} from './service.ts'
import { keyIdOf, MODHEX_OTP, verifyYubikeyOtp } from './yubikey.ts'

/** The checks common to both verify endpoints; returns the user's providers. */
const openVerification = async ({ em, user, request }: Input, provider: Provider) => {
  const providers = await userProviders(em, user.id)
  if (providers.length === 0) throw new HttpError(400, messages.noSettings)
  if (!providers.includes(provider)) throw new HttpError(400, messages.noProviderSettings)
  if (await hasValidProof(em, request, user)) throw new HttpError(400, messages.notRequired)
  return providers
}

/** A wrong code: counted, and past the limit the user is signed out. */
const refuse = async (
  input: Input,
  field: string,
  rule: string,
  message: string,
): Promise<never> => {
  if (await recordFailure(input.em, input.app, input.user)) {
    if (input.user.via === 'session')
      await endSession(input.em, input.request, input.request.state.session as never)
    input.request.cookies.set('refresh_token', null, {
      path: '/',
      httpOnly: true,
      secure: input.request.secure,
      overwrite: true,
    })
    throw new HttpError(400, messages.tooManyAttempts)
  }
  throw otpError(field, rule, message)
}

/** Checks a code for the provider; on success the proof cookie is set. */
const verifyCode = async (
  input: Input,
  provider: Provider,
  code: unknown,
  rememberFlag: unknown,
) => {
  await openVerification(input, provider)
  const account = await readAccountMfa(input.em, input.user.id)
  if (provider === 'totp') {
    const rule = totpRule(code)
    if (rule) throw otpError('totp', ...rule)
    if (!(await checkTotp(account.totp!.otpProvisioningUri, String(code))))
      await refuse(input, 'totp', 'isValidOtp', messages.otpInvalid)
  } else {
    if (typeof code !== 'string' || !MODHEX_OTP.test(code))
      throw otpError('hotp', 'isValidModhex', messages.modhexInvalid)
    if (keyIdOf(code) !== account.yubikey!.id)
      await refuse(input, 'hotp', 'isSameYubikeyId', messages.yubikeyForeign)
    const org = await readOrganizationMfa(input.em)
    if (
      !org.yubikey ||
      !(await verifyYubikeyOtp({ ...org.yubikey, url: org.yubikey.validationUrl }, code))
    )
      await refuse(input, 'hotp', 'isValidHotp', messages.hotpInvalid)
  }
  await grantProof(input.em, input.request, input.user, provider, isRemember(rememberFlag))
}

const jsonVerifyRoutes = (provider: Provider, field: 'totp' | 'hotp', name: string) => [
  defineRoute({
    method: 'GET',
    path: `/mfa/verify/${provider}.json`,
    action: `${name}VerifyGet.get`,
    summary: `Is a ${provider} check possible now?`,
    description:
      '200 when the caller has this provider set up and the organisation enables it, so the client may show the code form; 400 otherwise.',
    auth: 'user',
    // Checks the caller's own second factors.
    permission: 'none',
    message: messages.provideOtp,
    response: noBody,
    handler: async (input) => {
      await openVerification(input, provider)
      return null
    },
  }),
  defineRoute({
    method: 'POST',
    path: `/mfa/verify/${provider}.json`,
    action: `${name}VerifyPost.post`,
    summary: `Check a ${provider} code; on success the passbolt_mfa cookie proves it`,
    description:
      "Checks a one-time password from the caller's device. On success the `passbolt_mfa` cookie proves the check for this sign-in, or for 30 days with `remember`. Too many wrong codes sign the caller out.",
    auth: 'user',
    // Checks the caller's own second factors.
    permission: 'none',
    body: z.object({ [field]: (field === 'totp' ? totpCode : yubikeyCode).optional(), remember }),
    throttle: { account: () => undefined },
    message: messages.success,
    response: noBody,
    handler: async (input) => {
      await verifyCode(input, provider, input.body[field], input.body.remember)
      return null
    },
  }),
]

const redirectOf = (url: string) =>
  safeRedirect(new URL(url, 'http://keyward.invalid').searchParams.get('redirect'))

/** The HTML form for browsers (no `.json`): GET shows it, POST checks and redirects. */
const formRoutes = (provider: Provider, field: 'totp' | 'hotp', name: string) => [
  defineRoute({
    method: 'GET',
    path: `/mfa/verify/${provider}`,
    action: `${name}VerifyGet.getHtml`,
    summary: `HTML form: ${provider} check`,
    auth: 'public',
    // Checks the caller's own second factors.
    permission: 'none',
    openapi: false,
    handler: ({ user, request }) => {
      if (!user) return new Reply(null, { redirect: '/auth/login' })
      return new Reply(
        verifyForm(provider, String(request.state.csrfToken ?? ''), redirectOf(request.url)),
        { html: true },
      )
    },
  }),
  defineRoute({
    method: 'POST',
    path: `/mfa/verify/${provider}`,
    action: `${name}VerifyPost.postHtml`,
    summary: `HTML form: ${provider} check`,
    auth: 'public',
    // Checks the caller's own second factors.
    permission: 'none',
    openapi: false,
    csrf: false,
    body: z.object({
      [field]: z.string().max(64).optional(),
      remember: z.string().max(5).optional(),
      _csrfToken: z.string().max(256).optional(),
    }),
    throttle: { account: () => undefined },
    handler: async (input) => {
      const { user, body, request } = input
      // The form's page is public so that a guest is sent to sign in rather than answered 401.
      if (!user) return new Reply(null, { redirect: '/auth/login' })
      assertCsrfToken(request, body._csrfToken)
      const cookie = input.request.cookies.get(CSRF_COOKIE)!
      const target = redirectOf(input.request.url)
      try {
        await verifyCode({ ...input, user }, provider, body[field], body.remember)
      } catch (error) {
        if (!(error instanceof HttpError) || error.status !== 400) throw error
        if (error.message === messages.tooManyAttempts)
          return new Reply(null, { redirect: '/auth/login' })
        return new Reply(verifyForm(provider, cookie, target, error.message), {
          html: true,
          status: 400,
        })
      }
      return new Reply(null, { redirect: target })
    },
  }),
]

export const verifyRoutes = [
  ...jsonVerifyRoutes('totp', 'totp', 'Totp'),
  ...jsonVerifyRoutes('yubikey', 'hotp', 'Yubikey'),
  ...formRoutes('totp', 'totp', 'Totp'),
  ...formRoutes('yubikey', 'hotp', 'Yubikey'),
  ...(['GET', 'POST', 'PUT', 'DELETE'] as const).map((method) =>
    defineRoute({
      method,
      path: '/mfa/verify/error.json',
      action: 'MfaVerifyAjaxError.get',
      summary: 'Where requests go while a second factor is owed: always 403 with the providers',
      description:
        'While a signed-in user still owes a second factor, every other request answers as this one: 403 with the providers the user may verify with, so the client opens the right form.',
      auth: 'user',
      // Checks the caller's own second factors.
      permission: 'none',
      csrf: false,
      response: noBody.meta({ description: 'Never answered: this route only refuses.' }),
      handler: async ({ em, user, app }) => {
        const providers = await userProviders(em, user.id)
        throw new HttpError(403, messages.required, {
          mfa_providers: providers,
          providers: Object.fromEntries(
            providers.map((p) => [p, `${app.config.appUrl}mfa/verify/${p}.json`]),
          ),
        })
      },
    }),
  ),
]
