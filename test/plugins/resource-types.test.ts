// Resource types: seeded with passbolt's ids and definitions, listed as a community edition
// lists them, soft-deleted and restored by administrators only, with passbolt's guards.
import test from 'ava'
import { startTestApi } from '../helpers/api.ts'
import { clientValidation } from '../helpers/client-entities.ts'
import {
  createPassword,
  PASSWORD_AND_DESCRIPTION,
  PASSWORD_STRING,
  team,
} from '../helpers/vault.ts'

const setup = async (t: import('ava').ExecutionContext) => {
  const api = await startTestApi(t)
  const [admin, ada] = await team(api, ['admin', 'ada'], 'admin')
  return { api, admin, ada }
}

test('the list: passbolt 5.12 CE’s ids and slugs (TOTP and standalone types included), definitions the extension accepts', async (t) => {
  const { ada } = await setup(t)
  const list = await ada.client.fetch('/resource-types.json')
  t.is(list.status, 200)
  const bySlug = Object.fromEntries(
    list.json.body.map((type: { slug: string; id: string }) => [type.slug, type.id]),
  )
  t.deepEqual(bySlug, {
    'password-and-description': PASSWORD_AND_DESCRIPTION,
    'password-string': PASSWORD_STRING,
    totp: '05ba5c75-504d-5ad6-819a-83af68867d86',
    'password-description-totp': '8cca88d9-a3f6-56df-b860-3ef08de5c5c4',
    'v5-custom-fields': '0551544e-2ccd-5ce8-95cf-86f0aab0f827',
    'v5-note': '0a72c76b-b8e6-53f0-8bef-0a8ca6b5c764',
    'v5-pin-code': '4357bbc7-ed4d-52ff-b59d-9f7f17881bb3',
    'v5-default': 'dd1f723d-0d1e-513f-8218-4055dc0530d0',
    'v5-default-with-totp': '7438294d-f71c-5164-ba95-d9e60e295564',
    'v5-password-string': '761e5863-e17e-5ded-b3c2-76ffd5d0a2dc',
    'v5-totp-standalone': 'bb2280b5-c4d9-569c-9337-62b307f1139c',
  })
  // The 5.11 clients predate the PIN code type: their collection skips it, as passbolt 5.12's
  // answer would be skipped; every type they know passes their entity.
  t.deepEqual(await clientValidation('ResourceTypesCollection', list.json.body), {})
  for (const type of list.json.body) {
    if (type.slug !== 'v5-pin-code')
      t.deepEqual(await clientValidation('ResourceTypeEntity', type), {}, type.slug)
    t.is(type.deleted, null)
    t.false('resources_count' in type)
  }
  const pin = await ada.client.fetch('/resource-types/4357bbc7-ed4d-52ff-b59d-9f7f17881bb3.json')
  t.is(pin.json.body.definition.secret.properties.pin_code.pattern, '^\\d+$')
  const one = await ada.client.fetch(`/resource-types/${PASSWORD_AND_DESCRIPTION}.json`)
  t.is(one.json.body.definition.secret.properties.password.maxLength, 4096)
  t.is(
    (await ada.client.fetch('/resource-types/00000000-0000-4000-8000-000000000000.json')).status,
    404,
  )
  t.is((await ada.client.fetch('/resource-types/x.json')).status, 400)
})

test('administrators count resources per type, delete unused types and restore them', async (t) => {
  const { admin, ada } = await setup(t)
  await createPassword(ada, 'one')
  const counted = await admin.client.fetch('/resource-types.json?contain[resources_count]=1')
  const count = (slug: string) =>
    counted.json.body.find((type: { slug: string }) => type.slug === slug).resources_count
  t.is(count('password-and-description'), 1)
  t.is(count('password-string'), 0)
  const byUser = await ada.client.fetch('/resource-types.json?contain[resources_count]=1')
  t.false('resources_count' in byUser.json.body[0], 'users get no count')
  const used = await admin.client.fetch(`/resource-types/${PASSWORD_AND_DESCRIPTION}.json`, {
    method: 'DELETE',
  })
  t.is(used.status, 400)
  t.is(
    used.json.header.message,
    'The resource type can not be deleted as resources of this type still exist.',
  )
  t.is(
    (await ada.client.fetch(`/resource-types/${PASSWORD_STRING}.json`, { method: 'DELETE' }))
      .status,
    403,
  )
  t.is(
    (await admin.client.fetch(`/resource-types/${PASSWORD_STRING}.json`, { method: 'DELETE' }))
      .status,
    200,
  )
  const deleted = await ada.client.fetch('/resource-types.json?filter[is-deleted]=1')
  t.deepEqual(
    deleted.json.body.map((type: { slug: string }) => type.slug),
    ['password-string'],
  )
  t.regex(deleted.json.body[0].deleted, /\+00:00$/)
  const again = await admin.client.fetch(`/resource-types/${PASSWORD_STRING}.json`, {
    method: 'DELETE',
  })
  t.is(again.json.header.message, 'The resource type is already deleted.')
  const creating = await ada.client.json('/resources.json', 'POST', {
    name: 'x',
    resource_type_id: PASSWORD_STRING,
    secrets: [{ data: 'x' }],
  })
  t.truthy(creating.json.body.resource_type_id.resource_type_exists)
  const put = (body: unknown) =>
    admin.client.json(`/resource-types/${PASSWORD_STRING}.json`, 'PUT', body)
  t.is(
    (await put({ deleted: '2020-01-01T00:00:00+00:00' })).json.header.message,
    'The deleted field must be set to null.',
  )
  t.is(
    (await put({ deleted: null, name: 'x' })).json.header.message,
    'It is not allowed to update these resource type properties.',
  )
  t.is((await put({})).status, 400)
  t.is((await put({ deleted: null })).status, 200)
  t.is((await put({ deleted: null })).json.header.message, 'The resource type is not deleted.')
  const last = await admin.client.fetch(`/resource-types/${PASSWORD_STRING}.json`, {
    method: 'DELETE',
  })
  t.is(last.status, 200)
  const lastV4 = await admin.client.fetch(
    `/resource-types/05ba5c75-504d-5ad6-819a-83af68867d86.json`,
    {
      method: 'DELETE',
    },
  )
  t.is(lastV4.status, 200, 'the Pro-only TOTP type can go while another v4 type lives')
  await admin.client.fetch('/resource-types/8cca88d9-a3f6-56df-b860-3ef08de5c5c4.json', {
    method: 'DELETE',
  })
  t.is((await ada.client.json('/resources.json', 'POST', {})).status, 400)
})
