// Keys named `__proto__`, `constructor` and `prototype` in a request are data, never a way into
// the server's objects: an error tree that walked into Object.prototype once made every insert
// carry an inherited column, and every sign-in failed until the process restarted.
import test from 'ava'
import { z } from 'zod'
import { refuseReservedKeys } from '../../api/body.ts'
import { HttpError } from '../../api/errors.ts'
import { ErrorTree, validate } from '../../api/validation.ts'
import { startTestApi } from '../helpers/api.ts'
import { gpgAuthLogin, TestClient } from '../helpers/client.ts'
import { createActiveUser } from '../helpers/users.ts'

const polluted = () => {
  const probe = {} as Record<string, unknown>
  return ['unknown', 'x', '_required', 'type', 'array', 'inList'].filter(
    (name) => probe[name] !== undefined,
  )
}

test('an administrator sending a __proto__ key in the MFA settings does not stop sign-ins', async (t) => {
  const api = await startTestApi(t)
  const ada = await createActiveUser(api, 'ada@keyward.test')
  const send = (body: string) =>
    api.request('/mfa/settings.json', {
      role: 'admin',
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body,
    })
  const refused = await send('{"providers":["totp"],"yubikey":{"__proto__":{"x":1}},"duo":{}}')
  t.is(refused.status, 400, refused.text)
  t.is(refused.json.header.status, 'error')
  t.deepEqual(polluted(), [])
  const signIn = await gpgAuthLogin(new TestClient(api.url), ada)
  t.is(signIn.stage2.status, 200, signIn.stage2.text)
  t.is(signIn.stage2.json.header.status, 'success')
})

test('constructor.prototype paths are refused as data in JSON, forms and query strings', async (t) => {
  const api = await startTestApi(t)
  const ada = await createActiveUser(api, 'ada@keyward.test')
  const bodies = [
    '{"__proto__":{"unknown":"x"}}',
    '{"constructor":{"prototype":{"unknown":"x"}}}',
    '{"providers":["totp"],"constructor":{"prototype":{"x":1}}}',
    '{"providers":["totp"],"yubikey":{"constructor":{"prototype":{"x":1}}},"duo":{}}',
    '{"providers":[{"__proto__":{"x":1}}],"yubikey":{},"duo":{}}',
  ]
  for (const body of bodies) {
    const answer = await api.request('/mfa/settings.json', {
      role: 'admin',
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body,
    })
    t.true(answer.status >= 400 && answer.status < 500, `${body}: ${answer.status}`)
    t.deepEqual(polluted(), [], body)
  }
  for (const form of [
    '__proto__[x]=1',
    'constructor[prototype][x]=1',
    'providers[__proto__][x]=1',
    'yubikey[constructor][prototype][unknown]=1',
  ]) {
    const answer = await api.request('/mfa/settings.json', {
      role: 'admin',
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: form,
    })
    t.true(answer.status < 500, `${form}: ${answer.status}`)
    const listed = await api.request(`/users.json?${form}&filter[__proto__][x]=1`, {
      role: 'admin',
    })
    t.true(listed.status < 500, `${form}: ${listed.status}`)
    t.deepEqual(polluted(), [], form)
  }
  const signIn = await gpgAuthLogin(new TestClient(api.url), ada)
  t.is(signIn.stage2.json.header.status, 'success')
})

test('error trees keep __proto__ and constructor as reported field names, not paths into prototypes', (t) => {
  const schema = z.strictObject({ yubikey: z.strictObject({ clientId: z.string().optional() }) })
  const input = JSON.parse(
    '{"__proto__":{"x":1},"constructor":{"prototype":{}},"yubikey":{"__proto__":{"x":1}}}',
  )
  const error = t.throws(() => validate(schema, input), { instanceOf: HttpError })
  t.deepEqual(polluted(), [])
  const body = JSON.parse(JSON.stringify(error?.body))
  t.deepEqual(Object.keys(body).sort(), ['__proto__', 'constructor', 'yubikey'])
  t.is(
    Object.getOwnPropertyDescriptor(body, '__proto__')?.value.unknown,
    'This field is not allowed.',
  )
  t.is(
    Object.getOwnPropertyDescriptor(body.yubikey, '__proto__')?.value.unknown,
    'This field is not allowed.',
  )
  const tree = new ErrorTree()
  tree.add(['constructor', 'prototype'], 'unknown', 'x')
  tree.add(['__proto__', 'x'], 'unknown', 'y')
  tree.add(['permissions', 0, '__proto__'], 'unknown', 'z')
  t.deepEqual(polluted(), [])
  t.is(Object.getPrototypeOf(tree.tree), Object.prototype)
  t.deepEqual(
    JSON.parse(JSON.stringify(tree.tree)),
    JSON.parse(
      '{"constructor":{"prototype":{"unknown":"x"}},"__proto__":{"x":{"unknown":"y"}},"permissions":{"0":{"__proto__":{"unknown":"z"}}}}',
    ),
  )
})

test('a JSON body with a reserved key at any depth is a 400 before anything reads it', (t) => {
  for (const text of [
    '{"__proto__":{}}',
    '[{"a":[{"b":{"constructor":{"prototype":{"x":1}}}}]}]',
    '{"a":{"prototype":1}}',
    '{"a":{"\\u005f_proto__":1}}',
  ]) {
    const error = t.throws(
      () => refuseReservedKeys(JSON.parse(text)),
      { instanceOf: HttpError },
      text,
    )
    t.is(error?.status, 400, text)
  }
  t.notThrows(() => refuseReservedKeys(JSON.parse('{"a":{"constructors":1,"proto":[1]}}')))
})
