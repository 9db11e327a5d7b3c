// The self-registration settings (one provider: e-mail domains) and the registration form.
import { z } from 'zod'
import { messages } from './messages.ts'

/** A domain as the part after `@` of a valid address: labels of letters, digits and hyphens. */
const DOMAIN = /^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/i

export const isEmailDomain = (domain: string) => DOMAIN.test(domain)

export const settingsBody = z.object({
  provider: z.literal('email_domains', { error: messages.providerUnknown }),
  data: z.object({
    allowed_domains: z
      .array(
        z
          .string()
          .max(253)
          .meta({ examples: ['example.com'] }),
      )
      .min(1, { error: messages.domainsEmpty })
      .max(1000)
      .superRefine((domains, context) => {
        for (const [index, domain] of domains.entries())
          if (!isEmailDomain(domain))
            context.addIssue({
              code: 'custom',
              path: [index],
              message: messages.domainInvalid(index),
              params: { rule: 'areEmailDomainsValid' },
            })
      }),
  }),
})

export type SelfRegistrationSettings = z.output<typeof settingsBody>

export const dryRunBody = z.object({ email: z.email().max(255) })

const name = z.string().trim().min(1).max(255)

export const registerBody = z.object({
  username: z.email().max(255),
  profile: z.object({ first_name: name, last_name: name }),
})
