// What the MFA routes share: the TOTP code rules in passbolt's order, the OTP error shape,
// the remember flag, and the handler input type.
import { z } from 'zod'
import { HttpError } from '../../api/errors.ts'
import type { HandlerInput } from '../../api/plugin.ts'
import { checkedLater } from '../../api/validation.ts'
import { messages } from './messages.ts'
import { MODHEX_OTP } from './yubikey.ts'

/**
 * A TOTP code as passbolt reads it (digits, as text or a number). Its rules are applied by the
 * route at passbolt's point, after the checks of the caller's settings, so any value passes here.
 */
export const totpCode = checkedLater(
  z.union([z.string().regex(/^[0-9]{6,}$/), z.number().int().nonnegative()]).meta({
    examples: ['123456'],
  }),
)

/** A Yubikey OTP, checked by the route as `totpCode` is. */
export const yubikeyCode = checkedLater(
  z
    .string()
    .regex(MODHEX_OTP)
    .meta({ examples: ['elbjvhtfndkciugrelbjvhtfndkciugrelbjvhtfndkc'] }),
)

export const remember = z.union([z.boolean(), z.number(), z.string().max(5)]).optional()
export const isRemember = (value: unknown) =>
  value === true || value === 1 || value === '1' || value === 'true'

/** passbolt's rules for a TOTP code, in its order: required, not empty, numeric, at least 6 digits. */
export const totpRule = (value: unknown): [string, string] | undefined => {
  if (value === undefined || value === null) return ['_required', messages.otpRequired]
  const code = typeof value === 'number' ? String(value) : value
  if (typeof code !== 'string') return ['numeric', messages.otpNumeric]
  if (code === '') return ['_empty', messages.otpEmpty]
  if (!/^\d+$/.test(code)) return ['numeric', messages.otpNumeric]
  if (code.length < 6) return ['minLength', messages.otpMinLength]
  return undefined
}

export const otpError = (field: string, rule: string, message: string) =>
  new HttpError(400, messages.otpFailed, { [field]: { [rule]: message } })

/** What the verification needs of a request: the signed-in caller and the exchange. */
export type Input = Pick<
  HandlerInput<unknown, unknown, unknown, 'user'>,
  'em' | 'app' | 'user' | 'request'
>
