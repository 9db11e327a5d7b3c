// MFA setup routes: each user's devices, and the organisation settings.
import { z } from 'zod'
import { HttpError } from '../../api/errors.ts'
import { defineRoute, Reply } from '../../api/plugin.ts'
import { noBody } from '../../api/response-schemas.ts'
import { withRules } from '../../api/validation.ts'
import { writeOrganizationSetting } from '../settings/index.ts'
import { messages } from './messages.ts'
import { otpError, totpRule } from './otp.ts'
import {
  checkTotp,
  forgetOrganizationMfa,
  grantProof,
  newTotpUri,
  type OrganizationMfa,
  PROVIDERS,
  type Provider,
  readAccountMfa,
  readOrganizationMfa,
  secretOfUri,
  writeAccountMfa,
} from './service.ts'
import { keyIdOf, MODHEX_OTP, verifyYubikeyOtp } from './yubikey.ts'

const DEFAULT_VALIDATION_URL = 'https://api.yubico.com/wsapi/2.0/verify'

/** passbolt's three providers, each on or off; Duo is never on here. */
const providerFlags = z.object({ totp: z.boolean(), duo: z.boolean(), yubikey: z.boolean() })

/**
 * Each provider: offered by the organisation, and set up by the caller. The official extension
 * reads the same facts from passbolt's two fields, and refuses an answer without them (its MFA
 * settings page then never leaves its loading state).
 */
const selectResponse = z.object({
  ...Object.fromEntries(
    PROVIDERS.map((provider) => [
      provider,
      z.object({ enabled: z.boolean(), configured: z.boolean() }),
    ]),
  ),
  MfaOrganizationSettings: providerFlags,
  MfaAccountSettings: providerFlags,
})

/** The date TOTP was set up, or the address of a new secret to scan. */
const totpSetupResponse = z.union([
  z.object({ verified: z.string() }),
  z.object({ otpProvisioningUri: z.string() }),
])

/** The provisioning URI's rules: present, then an `otpauth://totp` URI carrying a secret. */
const provisioningUriRule = (value: unknown) => {
  if (value === undefined || value === null) return ['_required', messages.fieldRequired] as const
  if (typeof value !== 'string' || value.length > 1024 || !secretOfUri(value))
    return ['isValidOtpProvisioningUri', messages.uriInvalid] as const
  return undefined
}

/** A device's first code, checked with the URI it was scanned from (both reported together). */
const totpSetupBody = z.object({
  otpProvisioningUri: withRules(
    z
      .string()
      .max(1024)
      .meta({
        examples: ['otpauth://totp/Keyward:ada%40example.com?secret=JBSWY3DPEHPK3PXPJBSWY3DP'],
      }),
    provisioningUriRule,
  ),
  totp: withRules(
    z
      .union([z.string().regex(/^[0-9]{6,}$/), z.number().int().nonnegative()])
      .meta({ examples: ['123456'] }),
    totpRule,
  ),
})

/** A Yubikey OTP: 44 modhex characters, the first 12 the key's public identity. */
const yubikeyOtp = withRules(
  z
    .string()
    .regex(MODHEX_OTP)
    .meta({ examples: ['elbjvhtfndkciugrelbjvhtfndkciugrelbjvhtfndkc'] }),
  (value) =>
    typeof value === 'string' && MODHEX_OTP.test(value)
      ? undefined
      : (['isValidModhex', messages.modhexInvalid] as const),
)

export const setupRoutes = [
  defineRoute({
    method: 'GET',
    path: '/mfa/setup/select.json',
    action: 'MfaSetupSelect.get',
    summary: 'Which providers the organisation offers and which the caller has set up',
    description:
      'For each provider (TOTP, Yubikey), whether the organisation enables it and whether the caller has a device set up.',
    auth: 'user',
    // The caller's own devices; organisation settings and resets are for administrators (auth).
    permission: 'none',
    response: selectResponse,
    handler: async ({ em, user }) => {
      const org = await readOrganizationMfa(em)
      const account = await readAccountMfa(em, user.id)
      const offered = (p: Provider) => org.providers.includes(p)
      const configured = (p: Provider) => Boolean(account[p])
      return {
        ...Object.fromEntries(
          PROVIDERS.map((p) => [p, { enabled: offered(p), configured: configured(p) }]),
        ),
        MfaOrganizationSettings: { totp: offered('totp'), duo: false, yubikey: offered('yubikey') },
        MfaAccountSettings: {
          totp: configured('totp'),
          duo: false,
          yubikey: configured('yubikey'),
        },
      }
    },
  }),
  defineRoute({
    method: 'GET',
    path: '/mfa/setup/totp.json',
    action: 'TotpSetupGet.get',
    summary: 'A new TOTP provisioning URI to scan (or the configured status)',
    description:
      'A fresh `otpauth://` provisioning URI and its QR code for an authenticator app; when the caller already has a TOTP device, its configuration date instead.',
    auth: 'user',
    // The caller's own devices; organisation settings and resets are for administrators (auth).
    permission: 'none',
    response: totpSetupResponse,
    handler: async ({ em, user }) => {
      const account = await readAccountMfa(em, user.id)
      if (account.totp) return { verified: account.totp.created }
      return { otpProvisioningUri: newTotpUri(user.username) }
    },
  }),
  defineRoute({
    method: 'POST',
    path: '/mfa/setup/totp.json',
    action: 'TotpSetupPost.post',
    summary: 'Confirm a TOTP device with a code from it',
    description:
      'Stores the TOTP secret of the provisioning URI once a current code from the device proves it was scanned. A malformed URI and a malformed code are reported together (400); a wrong code answers 400 too, and nothing is stored.',
    auth: 'user',
    // The caller's own devices; organisation settings and resets are for administrators (auth).
    permission: 'none',
    body: totpSetupBody,
    validationMessage: messages.otpFailed,
    throttle: { account: () => undefined },
    message: messages.setupSaved,
    response: noBody,
    handler: async ({ em, user, body, request }) => {
      if (!(await checkTotp(body.otpProvisioningUri, String(body.totp))))
        throw otpError('totp', 'isValidOtp', messages.otpInvalid)
      const account = await readAccountMfa(em, user.id)
      await writeAccountMfa(em, user.id, {
        ...account,
        totp: { otpProvisioningUri: body.otpProvisioningUri, created: new Date().toISOString() },
      })
      // The code just proved the device: this sign-in owes nothing more.
      await grantProof(em, request, user, 'totp', false)
      return null
    },
  }),
  defineRoute({
    method: 'GET',
    path: '/mfa/setup/yubikey.json',
    action: 'YubikeySetupGet.get',
    summary: 'Whether the caller has a Yubikey set up',
    description:
      'The date the caller’s Yubikey was set up (`verified`), or an empty body asking to set one up. 400 when the organisation does not offer Yubikey.',
    auth: 'user',
    // The caller's own devices.
    permission: 'none',
    response: z.object({ verified: z.string() }).nullable(),
    handler: async ({ em, user }) => {
      const org = await readOrganizationMfa(em)
      if (!org.providers.includes('yubikey')) throw new HttpError(400, messages.providerDisabled)
      const account = await readAccountMfa(em, user.id)
      if (!account.yubikey) return new Reply(null, { message: messages.setupNeeded })
      return new Reply({ verified: account.yubikey.created }, { message: messages.configured })
    },
  }),
  defineRoute({
    method: 'POST',
    path: '/mfa/setup/yubikey.json',
    action: 'YubikeySetupPost.post',
    summary: 'Register a Yubikey with one OTP from it',
    description:
      "Checks one OTP (44 modhex characters, else 400 before any call) with the Yubico service and binds the key's public identity to the caller; later checks must come from the same key.",
    auth: 'user',
    // The caller's own devices; organisation settings and resets are for administrators (auth).
    permission: 'none',
    body: z.object({ hotp: yubikeyOtp }),
    validationMessage: messages.otpFailed,
    throttle: { account: () => undefined },
    message: messages.setupSaved,
    response: noBody,
    handler: async ({ em, user, body, request }) => {
      const otp = body.hotp
      const org = await readOrganizationMfa(em)
      if (
        !org.yubikey ||
        !(await verifyYubikeyOtp({ ...org.yubikey, url: org.yubikey.validationUrl }, otp))
      )
        throw otpError('hotp', 'isValidHotp', messages.hotpInvalid)
      const account = await readAccountMfa(em, user.id)
      await writeAccountMfa(em, user.id, {
        ...account,
        yubikey: { id: keyIdOf(otp), created: new Date().toISOString() },
      })
      await grantProof(em, request, user, 'yubikey', false)
      return null
    },
  }),
  ...PROVIDERS.map((provider) =>
    defineRoute({
      method: 'DELETE',
      path: `/mfa/setup/${provider}.json`,
      action: `${provider === 'totp' ? 'Totp' : 'Yubikey'}SetupDelete.delete`,
      summary: `Remove the caller's ${provider} device`,
      description:
        "Forgets the caller's device for this provider; other devices stay. Signing in no longer asks for it.",
      auth: 'user',
      // The caller's own devices; organisation settings and resets are for administrators (auth).
      permission: 'none',
      message: messages.setupRemoved,
      response: noBody,
      handler: async ({ em, user }) => {
        const { [provider]: _, ...rest } = await readAccountMfa(em, user.id)
        await writeAccountMfa(em, user.id, rest)
        return null
      },
    }),
  ),
  defineRoute({
    method: 'DELETE',
    path: '/mfa/setup/{userId}.json',
    action: 'MfaUserSettingsDisable.delete',
    summary: "Reset a user's MFA devices (administrators)",
    description:
      'Removes every second-factor device of the user, who then signs in with their key alone until they set one up again.',
    auth: 'admin',
    // The caller's own devices; organisation settings and resets are for administrators (auth).
    permission: 'none',
    params: z.object({ userId: z.uuid({ error: 'The user identifier should be a valid UUID.' }) }),
    message: messages.setupRemoved,
    response: noBody,
    handler: async ({ em, params }) => {
      await writeAccountMfa(em, params.userId, {})
      return null
    },
  }),
]

/**
 * The administration page sends every provider's block, empty (`{}`) when the provider is off;
 * the Yubico client id and secret follow the page's own rules. Duo needs Duo's cloud service,
 * which Keyward does not offer: the page still shows its switch, so turning it on is refused
 * with a message saying why.
 */
const organizationBody = z.object({
  providers: z
    .array(z.enum([...PROVIDERS, 'duo'], { error: messages.unknownProvider }))
    .max(PROVIDERS.length + 1)
    .refine((providers) => !providers.includes('duo'), {
      error: messages.duoUnavailable,
      params: { rule: 'duoUnavailable' },
    }),
  yubikey: z
    .union([
      z.object({
        clientId: z
          .string()
          .regex(/^[0-9]{1,64}$/, messages.yubikeyClientId)
          .meta({ examples: ['12345'] }),
        secretKey: z
          .string()
          .regex(/^[a-zA-Z0-9/=+]{10,128}$/, messages.yubikeySecretKey)
          .meta({ examples: ['c2VjcmV0a2V5MTIzNDU2Nzg='] }),
        validationUrl: z.url({ protocol: /^https?$/ }).optional(),
      }),
      z.object({}).strict(),
    ])
    .optional(),
  // The page sends Duo's fields as it holds them, `{}` when Duo is off; Duo is refused above.
  duo: z
    .looseObject({
      apiHostName: z.string().max(1024).optional(),
      clientId: z.string().max(1024).optional(),
      clientSecret: z.string().max(1024).optional(),
    })
    .optional(),
})

/** The settings as the administration page reads them (passbolt's layout). */
const organizationResponse = z.object({
  providers: z.array(z.enum(PROVIDERS)),
  yubikey: z
    .object({ clientId: z.string(), secretKey: z.string(), validationUrl: z.string().optional() })
    .optional(),
})

const organizationAnswer = (org: OrganizationMfa) => ({
  providers: org.providers,
  ...(org.yubikey
    ? {
        yubikey: {
          clientId: org.yubikey.clientId,
          secretKey: org.yubikey.secretKey,
          validationUrl: org.yubikey.validationUrl,
        },
      }
    : {}),
})

export const settingsRoutes = [
  defineRoute({
    method: 'GET',
    path: '/mfa/settings.json',
    action: 'MfaOrgSettingsGet.get',
    summary: "The organisation's MFA providers and the Yubico API credentials",
    description:
      'The providers users may set up (`totp`, `yubikey`) and, when Yubikey is configured, the Yubico client id and secret key, which the administration page edits. Duo is not offered.',
    auth: 'admin',
    // The caller's own devices; organisation settings and resets are for administrators (auth).
    permission: 'none',
    response: organizationResponse,
    handler: async ({ em }) => organizationAnswer(await readOrganizationMfa(em)),
  }),
  ...(['PUT', 'POST'] as const).map((method) =>
    defineRoute({
      method,
      path: '/mfa/settings.json',
      action: 'MfaOrgSettingsPost.post',
      summary: "Set the organisation's MFA providers",
      description:
        'Enables or disables TOTP and Yubikey for the organisation (Yubikey needs Yubico API credentials, checked before they are stored). Duo is refused with a message; its fields, which the page sends as it holds them, must be text. Users keep their devices; a disabled provider is simply not asked for.',
      auth: 'admin',
      // The caller's own devices; organisation settings and resets are for administrators (auth).
      permission: 'none',
      body: organizationBody,
      message: messages.settingsSaved,
      response: organizationResponse,
      handler: async ({ em, user, body, app }) => {
        // `{}` is the page's way of saying "no Yubico credentials".
        const yubikey =
          body.yubikey && 'clientId' in body.yubikey
            ? (body.yubikey as { clientId: string; secretKey: string; validationUrl?: string })
            : undefined
        if (body.providers.includes('yubikey') && !yubikey)
          throw new HttpError(400, 'Could not validate the MFA settings.', {
            yubikey: { _required: 'Yubikey needs a client id and secret key.' },
          })
        const value: OrganizationMfa = {
          providers: [...new Set(body.providers)] as Provider[],
          ...(yubikey
            ? {
                yubikey: {
                  ...yubikey,
                  validationUrl: yubikey.validationUrl ?? DEFAULT_VALIDATION_URL,
                },
              }
            : {}),
        }
        await writeOrganizationSetting(em, 'mfa', value, user.id)
        forgetOrganizationMfa(app)
        return organizationAnswer(value)
      },
    }),
  ),
]
