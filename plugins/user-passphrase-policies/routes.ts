// Routes of the user passphrase policies plugin: the minimum strength of the passphrase that
// protects each user's private key, read by every user, set by administrators.
import { z } from 'zod'
import { defineRoute } from '../../api/plugin.ts'
import { organizationSettingResponse } from '../settings/index.ts'
import { readUserPassphrasePolicies, writeUserPassphrasePolicies } from './service.ts'

export const policies = z.object({
  entropy_minimum: z.int().min(50).max(224),
  external_dictionary_check: z.boolean(),
})

/** The policy in force, with its row once an administrator saved one. */
const policiesResponse = organizationSettingResponse({
  entropy_minimum: z.number(),
  external_dictionary_check: z.boolean(),
})

export const routes = [
  defineRoute({
    method: 'GET',
    path: '/user-passphrase-policies/settings.json',
    action: 'UserPassphrasePoliciesSettingsGet.get',
    summary: "The organisation's minimum passphrase strength",
    description:
      'The minimum entropy (bits) of a user passphrase and whether it is checked against known breaches; 50 bits and the check by default.',
    auth: 'user',
    // Every user's client applies the policy when the passphrase changes.
    permission: 'none',
    response: policiesResponse,
    handler: ({ em }) => readUserPassphrasePolicies(em),
  }),
  ...(['POST', 'PUT'] as const).map((method) =>
    defineRoute({
      method,
      path: '/user-passphrase-policies/settings.json',
      action: 'UserPassphrasePoliciesSettingsPost.post',
      summary: "Set the organisation's minimum passphrase strength",
      description:
        'Refuses (400, keyed by field) an entropy outside 50–224 bits or a non-boolean breach check. New users are held to it when they choose their passphrase at setup.',
      auth: 'admin',
      // Organisation settings are for administrators, which `auth` already requires.
      permission: 'none',
      body: policies,
      response: policiesResponse,
      handler: async ({ em, user, body }) => {
        await writeUserPassphrasePolicies(em, body, user.id)
        return readUserPassphrasePolicies(em)
      },
    }),
  ),
]
