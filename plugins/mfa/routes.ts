// Routes of the MFA plugin: verification (§6.2), the required-MFA error page, each user's
// device setup, and the organisation settings.
import { z } from 'zod'
import { CSRF_COOKIE, constantTimeEqual } from '../../api/auth/csrf.ts'
import { HttpError } from '../../api/errors.ts'
import { defineRoute, type HandlerInput, Reply } from '../../api/plugin.ts'
import { endSession } from '../auth/sessions.ts'
import { writeOrganizationSetting } from '../settings/index.ts'
import { safeRedirect, verifyForm } from './form.ts'
import { messages } from './messages.ts'
import {
  checkTotp,
  forgetOrganizationMfa,
  grantProof,
  hasValidProof,
  newTotpUri,
  type OrganizationMfa,
  PROVIDERS,
  type Provider,
  readAccountMfa,
  readOrganizationMfa,
  recordFailure,
  secretOfUri,
  userProviders,
  writeAccountMfa,
} from './service.ts'
import { keyIdOf, MODHEX_OTP, verifyYubikeyOtp } from './yubikey.ts'

const DEFAULT_VALIDATION_URL = 'https://api.yubico.com/wsapi/2.0/verify'

const remember = z.union([z.boolean(), z.number(), z.string().max(5)]).optional()
const isRemember = (value: unknown) =>
  value === true || value === 1 || value === '1' || value === 'true'

/** passbolt's rules for a TOTP code, in its order (fact sheet §6.2). */
const totpRule = (value: unknown): [string, string] | undefined => {
  if (value === undefined || value === null) return ['_required', messages.otpRequired]
  const code = typeof value === 'number' ? String(value) : value
  if (typeof code !== 'string') return ['numeric', messages.otpNumeric]
  if (code === '') return ['_empty', messages.otpEmpty]
  if (!/^\d+$/.test(code)) return ['numeric', messages.otpNumeric]
  if (code.length < 6) return ['minLength', messages.otpMinLength]
  return undefined
}

const otpError = (field: string, rule: string, message: string) =>
  new HttpError(400, messages.otpFailed, { [field]: { [rule]: message } })

type Input = HandlerInput<
  Record<string, string>,
  { totp?: unknown; hotp?: unknown; remember?: unknown }
>

/** The checks common to both verify endpoints; returns the user's providers. */
const openVerification = async ({ em, user, request }: Input, provider: Provider) => {
  const providers = await userProviders(em, user!.id)
  if (providers.length === 0) throw new HttpError(400, messages.noSettings)
  if (!providers.includes(provider)) throw new HttpError(400, messages.noProviderSettings)
  if (await hasValidProof(em, request, user!)) throw new HttpError(400, messages.notRequired)
  return providers
}

/** A wrong code: counted, and past the limit the user is signed out. */
const refuse = async (
  input: Input,
  field: string,
  rule: string,
  message: string,
): Promise<never> => {
  if (await recordFailure(input.em, input.app, input.user!)) {
    if (input.user!.via === 'session')
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
  const account = await readAccountMfa(input.em, input.user!.id)
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
  await grantProof(input.em, input.request, input.user!, provider, isRemember(rememberFlag))
}

const jsonVerifyRoutes = (provider: Provider, field: 'totp' | 'hotp', name: string) => [
  defineRoute({
    method: 'GET',
    path: `/mfa/verify/${provider}.json`,
    action: `${name}VerifyGet.get`,
    summary: `Is a ${provider} check possible now?`,
    auth: 'user',
    message: messages.provideOtp,
    handler: async (input) => {
      await openVerification(input as unknown as Input, provider)
      return null
    },
  }),
  defineRoute({
    method: 'POST',
    path: `/mfa/verify/${provider}.json`,
    action: `${name}VerifyPost.post`,
    summary: `Check a ${provider} code; on success the passbolt_mfa cookie proves it`,
    auth: 'user',
    body: z.object({ [field]: z.unknown().optional(), remember }),
    throttle: { account: () => undefined },
    message: messages.success,
    handler: async (raw) => {
      const input = raw as unknown as Input
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
    openapi: false,
    csrf: false,
    body: z.object({
      [field]: z.string().max(64).optional(),
      remember: z.string().max(5).optional(),
      _csrfToken: z.string().max(256).optional(),
    }),
    throttle: { account: () => undefined },
    handler: async (raw) => {
      const input = raw as unknown as Input & { body: { _csrfToken?: string } }
      if (!input.user) return new Reply(null, { redirect: '/auth/login' })
      const cookie = input.request.cookies.get(CSRF_COOKIE)
      if (!cookie || !input.body._csrfToken || !constantTimeEqual(cookie, input.body._csrfToken))
        throw new HttpError(403, 'Missing or incorrect CSRF cookie type.')
      const target = redirectOf(input.request.url)
      try {
        await verifyCode(input, provider, input.body[field], input.body.remember)
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

const verifyRoutes = [
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
      auth: 'user',
      csrf: false,
      handler: async ({ em, user, app }) => {
        const providers = await userProviders(em, user!.id)
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

const setupRoutes = [
  defineRoute({
    method: 'GET',
    path: '/mfa/setup/select.json',
    action: 'MfaSetupSelect.get',
    summary: 'Which providers the organisation offers and which the caller has set up',
    auth: 'user',
    handler: async ({ em, user }) => {
      const org = await readOrganizationMfa(em)
      const account = await readAccountMfa(em, user!.id)
      return Object.fromEntries(
        PROVIDERS.map((p) => [
          p,
          { enabled: org.providers.includes(p), configured: Boolean(account[p]) },
        ]),
      )
    },
  }),
  defineRoute({
    method: 'GET',
    path: '/mfa/setup/totp.json',
    action: 'TotpSetupGet.get',
    summary: 'A new TOTP provisioning URI to scan (or the configured status)',
    auth: 'user',
    handler: async ({ em, user }) => {
      const account = await readAccountMfa(em, user!.id)
      if (account.totp) return { verified: account.totp.created }
      return { otpProvisioningUri: newTotpUri(user!.username) }
    },
  }),
  defineRoute({
    method: 'POST',
    path: '/mfa/setup/totp.json',
    action: 'TotpSetupPost.post',
    summary: 'Confirm a TOTP device with a code from it',
    auth: 'user',
    body: z.object({ otpProvisioningUri: z.string().max(1024), totp: z.unknown().optional() }),
    throttle: { account: () => undefined },
    message: messages.setupSaved,
    handler: async ({ em, user, body, request }) => {
      if (!secretOfUri(body.otpProvisioningUri))
        throw new HttpError(400, messages.otpFailed, {
          otpProvisioningUri: { isValidOtpProvisioningUri: 'The provisioning URI is not valid.' },
        })
      const rule = totpRule(body.totp)
      if (rule) throw otpError('totp', ...rule)
      if (!(await checkTotp(body.otpProvisioningUri, String(body.totp))))
        throw otpError('totp', 'isValidOtp', messages.otpInvalid)
      const account = await readAccountMfa(em, user!.id)
      await writeAccountMfa(em, user!.id, {
        ...account,
        totp: { otpProvisioningUri: body.otpProvisioningUri, created: new Date().toISOString() },
      })
      // The code just proved the device: this sign-in owes nothing more.
      await grantProof(em, request, user!, 'totp', false)
      return null
    },
  }),
  defineRoute({
    method: 'POST',
    path: '/mfa/setup/yubikey.json',
    action: 'YubikeySetupPost.post',
    summary: 'Register a Yubikey with one OTP from it',
    auth: 'user',
    body: z.object({ hotp: z.unknown().optional() }),
    throttle: { account: () => undefined },
    message: messages.setupSaved,
    handler: async ({ em, user, body, request }) => {
      const otp = body.hotp
      if (typeof otp !== 'string' || !MODHEX_OTP.test(otp))
        throw otpError('hotp', 'isValidModhex', messages.modhexInvalid)
      const org = await readOrganizationMfa(em)
      if (
        !org.yubikey ||
        !(await verifyYubikeyOtp({ ...org.yubikey, url: org.yubikey.validationUrl }, otp))
      )
        throw otpError('hotp', 'isValidHotp', messages.hotpInvalid)
      const account = await readAccountMfa(em, user!.id)
      await writeAccountMfa(em, user!.id, {
        ...account,
        yubikey: { id: keyIdOf(otp), created: new Date().toISOString() },
      })
      await grantProof(em, request, user!, 'yubikey', false)
      return null
    },
  }),
  ...PROVIDERS.map((provider) =>
    defineRoute({
      method: 'DELETE',
      path: `/mfa/setup/${provider}.json`,
      action: `${provider === 'totp' ? 'Totp' : 'Yubikey'}SetupDelete.delete`,
      summary: `Remove the caller's ${provider} device`,
      auth: 'user',
      message: messages.setupRemoved,
      handler: async ({ em, user }) => {
        const { [provider]: _, ...rest } = await readAccountMfa(em, user!.id)
        await writeAccountMfa(em, user!.id, rest)
        return null
      },
    }),
  ),
  defineRoute({
    method: 'DELETE',
    path: '/mfa/setup/{userId}.json',
    action: 'MfaUserSettingsDisable.delete',
    summary: "Reset a user's MFA devices (administrators)",
    auth: 'admin',
    params: z.object({ userId: z.uuid({ error: 'The user identifier should be a valid UUID.' }) }),
    message: messages.setupRemoved,
    handler: async ({ em, params }) => {
      await writeAccountMfa(em, params.userId, {})
      return null
    },
  }),
]

const organizationBody = z.object({
  providers: z.array(z.enum(PROVIDERS)).max(PROVIDERS.length),
  yubikey: z
    .object({
      clientId: z.string().regex(/^\d{1,16}$/),
      secretKey: z.base64().min(8).max(128),
      validationUrl: z.url().optional(),
    })
    .optional(),
})

const settingsRoutes = [
  defineRoute({
    method: 'GET',
    path: '/mfa/settings.json',
    action: 'MfaOrgSettingsGet.get',
    summary: "The organisation's MFA providers (the Yubico secret is not shown)",
    auth: 'admin',
    handler: async ({ em }) => {
      const org = await readOrganizationMfa(em)
      return {
        providers: org.providers,
        ...(org.yubikey
          ? {
              yubikey: { clientId: org.yubikey.clientId, validationUrl: org.yubikey.validationUrl },
            }
          : {}),
      }
    },
  }),
  ...(['PUT', 'POST'] as const).map((method) =>
    defineRoute({
      method,
      path: '/mfa/settings.json',
      action: 'MfaOrgSettingsPost.post',
      summary: "Set the organisation's MFA providers",
      auth: 'admin',
      body: organizationBody,
      message: messages.settingsSaved,
      handler: async ({ em, user, body }) => {
        if (body.providers.includes('yubikey') && !body.yubikey)
          throw new HttpError(400, 'Could not validate the MFA settings.', {
            yubikey: { _required: 'Yubikey needs a client id and secret key.' },
          })
        const value: OrganizationMfa = {
          providers: [...new Set(body.providers)],
          ...(body.yubikey
            ? {
                yubikey: {
                  ...body.yubikey,
                  validationUrl: body.yubikey.validationUrl ?? DEFAULT_VALIDATION_URL,
                },
              }
            : {}),
        }
        await writeOrganizationSetting(em, 'mfa', value, user!.id)
        forgetOrganizationMfa()
        return new Reply(null)
      },
    }),
  ),
]

export const routes = [...verifyRoutes, ...setupRoutes, ...settingsRoutes]
