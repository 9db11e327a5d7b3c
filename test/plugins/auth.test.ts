// GET /auth/verify.json: the server's public key, as GPGAuth clients fetch it.
import { readFileSync } from 'node:fs'
import test from 'ava'
import * as openpgp from 'openpgp'
import { SERVER_KEY, startTestApi } from '../helpers/api.ts'

test('the verify endpoint serves the configured server key and its fingerprint', async (t) => {
  const api = await startTestApi(t)
  const { status, json } = await api.request('/auth/verify.json')
  t.is(status, 200)
  const key = await openpgp.readKey({ armoredKey: json.body.keydata })
  const expected = await openpgp.readKey({
    armoredKey: readFileSync(SERVER_KEY.publicPath, 'utf8'),
  })
  t.is(key.getFingerprint(), expected.getFingerprint())
  t.is(json.body.fingerprint, expected.getFingerprint().toUpperCase())
})
