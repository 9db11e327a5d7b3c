// The JWT sign-in as the mobile and desktop apps play it: a challenge signed by the user's key
// and encrypted to the server key, answered by tokens encrypted to the user.
import * as openpgp from 'openpgp'
import type { TestClient, TestUserKey } from './client.ts'

export interface ChallengeFields {
  version?: string
  domain?: string
  verify_token?: string
  verify_token_expiry?: number
}

export const makeChallenge = async (
  client: TestClient,
  key: TestUserKey,
  domain: string,
  fields: ChallengeFields = {},
  signingKey = key.privateKey,
) => {
  const serverKey = await openpgp.readKey({
    armoredKey: (await client.fetch('/auth/verify.json')).json.body.keydata,
  })
  const text = JSON.stringify({
    version: '1.0.0',
    domain,
    verify_token: crypto.randomUUID(),
    verify_token_expiry: Math.floor(Date.now() / 1000) + 300,
    ...fields,
  })
  return (await openpgp.encrypt({
    message: await openpgp.createMessage({ text }),
    encryptionKeys: serverKey,
    signingKeys: signingKey,
  })) as string
}

/** Logs in; returns the response and, on success, the decrypted tokens. */
export const jwtLogin = async (
  client: TestClient,
  userId: string,
  key: TestUserKey,
  domain: string,
  fields: ChallengeFields = {},
) => {
  const challenge = await makeChallenge(client, key, domain, fields)
  const response = await client.json('/auth/jwt/login.json', 'POST', { user_id: userId, challenge })
  if (response.status !== 200) return { response }
  const serverKey = await openpgp.readKey({
    armoredKey: (await client.fetch('/auth/verify.json')).json.body.keydata,
  })
  const { data, signatures } = await openpgp.decrypt({
    message: await openpgp.readMessage({ armoredMessage: response.json.body.challenge }),
    decryptionKeys: key.privateKey,
    verificationKeys: serverKey,
    expectSigned: true,
  })
  await signatures[0].verified
  return {
    response,
    answer: JSON.parse(String(data)) as {
      version: string
      domain: string
      access_token: string
      refresh_token: string
      verify_token: string
    },
  }
}
