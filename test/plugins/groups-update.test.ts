// Changing a group's members as the extension does: the dry run says which secrets an added
// member needs and hands the manager's own to re-encrypt; the update carries exactly those.
// Removals take away what members no longer reach; roles, renames and every refusal passbolt
// makes; two concurrent updates of one group. After each test, every user who can read a
// resource has exactly one secret for it.
import test, { type ExecutionContext } from 'ava'
import { startTestApi } from '../helpers/api.ts'
import { clientValidation } from '../helpers/client-entities.ts'
import {
  createPassword,
  decryptAs,
  encryptFor,
  type Member,
  secretInvariantViolations,
  sqlOf,
  team,
} from '../helpers/vault.ts'

const setup = async (t: ExecutionContext) => {
  const api = await startTestApi(t)
  const everyone = await team(api, ['ada', 'bob', 'cat', 'dan', 'eve'], 'eve')
  t.teardown(async () => {
    const violations = await secretInvariantViolations(api).catch(() => [])
    if (violations.length) throw new Error(`secret invariant broken: ${violations.join(', ')}`)
  })
  const [ada, bob, cat, dan, eve] = everyone
  const sql = sqlOf(api)
  // ada manages the group, bob is a member.
  const created = await eve.client.json('/groups.json', 'POST', {
    name: 'Team',
    groups_users: [
      { user_id: ada.id, is_admin: true },
      { user_id: bob.id, is_admin: false },
    ],
  })
  if (created.status !== 200) throw new Error(created.text)
  const groupId: string = created.json.body.id
  /** Shares the resource with the group as the extension does (simulate, encrypt, share). */
  const shareWithGroup = async (owner: Member, resourceId: string, plaintext: string) => {
    const permissions = [{ aro: 'Group', aro_foreign_key: groupId, aco: 'Resource', type: 1 }]
    const simulated = await owner.client.json(
      `/share/simulate/resource/${resourceId}.json`,
      'POST',
      { permissions },
    )
    const secrets = await Promise.all(
      simulated.json.body.changes.added.map(async ({ User: { id } }: { User: { id: string } }) => ({
        user_id: id,
        resource_id: resourceId,
        data: await encryptFor(plaintext, [everyone.find((m) => m.id === id)!], owner),
      })),
    )
    const shared = await owner.client.json(`/share/resource/${resourceId}.json`, 'PUT', {
      permissions,
      secrets,
    })
    if (shared.status !== 200) throw new Error(shared.text)
  }
  const membershipOf = async (user: Member) =>
    (
      await sql('select id, is_admin from groups_users where group_id = $1 and user_id = $2', [
        groupId,
        user.id,
      ])
    )[0] as { id: string; is_admin: boolean } | undefined
  return { api, everyone, ada, bob, cat, dan, eve, sql, groupId, shareWithGroup, membershipOf }
}

const secretText = (password: string) => JSON.stringify({ password, description: 'notes' })

/** The extension's group update: dry run, decrypt the manager's secrets, encrypt for the added. */
const addMembers = async (
  manager: Member,
  groupId: string,
  added: { member: Member; isAdmin: boolean }[],
  tamper: (secrets: Record<string, string>[]) => Record<string, string>[] = (s) => s,
) => {
  const groups_users = added.map(({ member, isAdmin }) => ({
    user_id: member.id,
    is_admin: isAdmin,
  }))
  const dryRun = await manager.client.json(`/groups/${groupId}/dry-run.json`, 'PUT', {
    groups_users,
  })
  if (dryRun.status !== 200) return { dryRun, update: dryRun }
  const { SecretsNeeded, Secrets } = dryRun.json.body['dry-run']
  const plain = new Map<string, string>()
  for (const { Secret } of Secrets)
    plain.set(Secret[0].resource_id, await decryptAs(Secret[0].data, manager))
  const secrets = await Promise.all(
    SecretsNeeded.map(async ({ Secret }: { Secret: { resource_id: string; user_id: string } }) => ({
      resource_id: Secret.resource_id,
      user_id: Secret.user_id,
      data: await encryptFor(
        plain.get(Secret.resource_id)!,
        [added.find(({ member }) => member.id === Secret.user_id)!.member],
        manager,
      ),
    })),
  )
  const update = await manager.client.json(`/groups/${groupId}.json`, 'PUT', {
    groups_users,
    secrets: tamper(secrets),
  })
  return { dryRun, update }
}

test('a manager adds a member: the dry run names the secrets, the member can then read the passwords', async (t) => {
  const { ada, cat, groupId, shareWithGroup, sql } = await setup(t)
  const first = await createPassword(ada, 'first', 'pw-1')
  const second = await createPassword(ada, 'second', 'pw-2')
  await createPassword(ada, 'private')
  await shareWithGroup(ada, first.id, secretText('pw-1'))
  await shareWithGroup(ada, second.id, secretText('pw-2'))
  // cat can already read the second one directly.
  const direct = await ada.client.json(`/share/resource/${second.id}.json`, 'PUT', {
    permissions: [{ aro: 'User', aro_foreign_key: cat.id, aco: 'Resource', type: 1 }],
    secrets: [
      {
        user_id: cat.id,
        resource_id: second.id,
        data: await encryptFor(secretText('pw-2'), [cat], ada),
      },
    ],
  })
  t.is(direct.status, 200, direct.text)

  const { dryRun, update } = await addMembers(ada, groupId, [{ member: cat, isAdmin: false }])
  t.is(dryRun.status, 200, dryRun.text)
  const result = dryRun.json.body['dry-run']
  t.deepEqual(result.SecretsNeeded, [{ Secret: { resource_id: first.id, user_id: cat.id } }])
  t.is(result.Secrets.length, 1)
  t.is(result.Secrets[0].Secret[0].resource_id, first.id)
  // The extension remaps the v1 shape and validates it.
  t.deepEqual(
    await clientValidation('GroupUpdateDryRunResultEntity', {
      secrets: result.Secrets.map((s: { Secret: unknown[] }) => s.Secret[0]),
      needed_secrets: result.SecretsNeeded.map((s: { Secret: unknown }) => s.Secret),
    }),
    {},
  )

  t.is(update.status, 200, update.text)
  t.is(update.json.header.message, 'The operation was successful.')
  const group = update.json.body
  t.deepEqual(await clientValidation('GroupEntity', group), {})
  const added = group.groups_users.find((m: { user_id: string }) => m.user_id === cat.id)
  t.false(added.is_admin)
  t.is(added.user.profile.first_name, 'Test')
  const read = await cat.client.fetch(`/secrets/resource/${first.id}.json`)
  t.is(read.status, 200)
  t.is(await decryptAs(read.json.body.data, cat), secretText('pw-1'))
  t.deepEqual(
    await sql('select created_by from secrets where resource_id = $1 and user_id = $2', [
      first.id,
      cat.id,
    ]),
    [{ created_by: ada.id }],
  )
  const listed = await cat.client.fetch('/resources.json')
  t.deepEqual(listed.json.body.map((r: { name: string }) => r.name).sort(), ['first', 'second'])
})

test('an added member gains the group’s folders in their tree; a removed one loses them and the secrets only the group gave', async (t) => {
  const { ada, bob, cat, groupId, shareWithGroup, membershipOf, sql } = await setup(t)
  const folder = await ada.client.json('/folders.json', 'POST', { name: 'Shared' })
  const shared = await ada.client.json(`/share/folder/${folder.json.body.id}.json`, 'PUT', {
    permissions: [{ aro: 'Group', aro_foreign_key: groupId, aco: 'Folder', type: 1 }],
  })
  t.is(shared.status, 200, shared.text)
  const viaGroup = await createPassword(ada, 'via-group', 'pw-g')
  await shareWithGroup(ada, viaGroup.id, secretText('pw-g'))
  const alsoDirect = await createPassword(ada, 'also-direct', 'pw-d')
  await shareWithGroup(ada, alsoDirect.id, secretText('pw-d'))
  await ada.client.json(`/share/resource/${alsoDirect.id}.json`, 'PUT', {
    permissions: [{ aro: 'User', aro_foreign_key: bob.id, aco: 'Resource', type: 1 }],
    secrets: [],
  })
  const favorite = await bob.client.json(`/favorites/resource/${viaGroup.id}.json`, 'POST', {})
  t.is(favorite.status, 200, favorite.text)
  for (const resource of [viaGroup, alsoDirect]) {
    const tagged = await bob.client.json(`/tags/${resource.id}.json`, 'POST', { tags: ['mine'] })
    t.is(tagged.status, 200, tagged.text)
  }

  const { update } = await addMembers(ada, groupId, [{ member: cat, isAdmin: false }])
  t.is(update.status, 200, update.text)
  const catFolders = await cat.client.fetch('/folders.json')
  t.deepEqual(
    catFolders.json.body.map((f: { name: string }) => f.name),
    ['Shared'],
  )
  t.is(
    (await sql('select 1 from folders_relations where user_id = $1', [cat.id])).length,
    3,
    'the folder and both resources are in cat’s tree',
  )

  const bobMembership = await membershipOf(bob)
  const removed = await ada.client.json(`/groups/${groupId}.json`, 'PUT', {
    groups_users: [{ id: bobMembership!.id, delete: true }],
  })
  t.is(removed.status, 200, removed.text)
  t.is(await membershipOf(bob), undefined)
  t.deepEqual(
    (
      await sql(
        'select r.name from secrets s join resources r on r.id = s.resource_id where s.user_id = $1',
        [bob.id],
      )
    ).map((row) => row.name),
    ['also-direct'],
  )
  t.deepEqual((await bob.client.fetch('/folders.json')).json.body, [])
  t.deepEqual(await sql('select 1 from favorites where user_id = $1', [bob.id]), [])
  t.deepEqual(
    await sql('select resource_id from resources_tags where user_id = $1', [bob.id]),
    [{ resource_id: alsoDirect.id }],
    'bob keeps his tag where he still reads the resource',
  )
  t.is((await bob.client.fetch(`/secrets/resource/${viaGroup.id}.json`)).status, 404)
})

test('roles: managers and administrators change them; the group keeps a manager; admins rename, managers cannot', async (t) => {
  const { ada, bob, cat, eve, groupId, membershipOf, sql } = await setup(t)
  const adaRow = (await membershipOf(ada))!
  const bobRow = (await membershipOf(bob))!
  const demoteLast = await ada.client.json(`/groups/${groupId}.json`, 'PUT', {
    groups_users: [{ id: adaRow.id, is_admin: false }],
  })
  t.is(demoteLast.status, 400)
  t.is(demoteLast.json.header.message, 'Could not validate group data.')
  t.deepEqual(demoteLast.json.body, {
    groups_users: {
      0: { is_admin: { at_least_one_group_manager: 'Cannot delete the last group manager.' } },
    },
  })
  const removeLast = await eve.client.json(`/groups/${groupId}.json`, 'PUT', {
    groups_users: [{ id: adaRow.id, delete: true }],
  })
  t.deepEqual(removeLast.json.body, {
    groups_users: {
      0: { is_admin: { at_least_one_group_manager: 'Cannot delete the last group manager.' } },
    },
  })
  // Promotions are applied first, so a swap of roles in one request is fine.
  const swap = await ada.client.json(`/groups/${groupId}.json`, 'PUT', {
    groups_users: [
      { id: adaRow.id, is_admin: false },
      { id: bobRow.id, is_admin: true },
    ],
  })
  t.is(swap.status, 200, swap.text)
  t.false((await membershipOf(ada))!.is_admin)
  t.true((await membershipOf(bob))!.is_admin)
  const notManager = await ada.client.json(`/groups/${groupId}.json`, 'PUT', { name: 'Mine' })
  t.is(notManager.status, 403)
  t.is(notManager.json.header.message, 'You are not authorized to access that location.')

  const managerRename = await bob.client.json(`/groups/${groupId}.json`, 'PUT', { name: 'Bobs' })
  t.is(managerRename.status, 200)
  t.is(managerRename.json.body.name, 'Team', 'only administrators rename')
  const adminRename = await eve.client.json(`/groups/${groupId}.json`, 'PUT', { name: 'Crew' })
  t.is(adminRename.status, 200)
  t.is(adminRename.json.body.name, 'Crew')
  t.is(adminRename.json.body.modified_by, eve.id)
  // An administrator who does not manage the group cannot add members (passbolt ignores it).
  const adminAdd = await eve.client.json(`/groups/${groupId}.json`, 'PUT', {
    groups_users: [{ user_id: cat.id, is_admin: false }],
  })
  t.is(adminAdd.status, 200)
  t.is(await membershipOf(cat), undefined)
  const adminDryRun = await eve.client.json(`/groups/${groupId}/dry-run.json`, 'PUT', {
    groups_users: [{ user_id: cat.id, is_admin: false }],
  })
  t.deepEqual(adminDryRun.json.body, { 'dry-run': { SecretsNeeded: [], Secrets: [] } })
  // Administrators remove members and change roles.
  const adminRemove = await eve.client.json(`/groups/${groupId}.json`, 'PUT', {
    groups_users: [{ id: adaRow.id, delete: true }],
  })
  t.is(adminRemove.status, 200)
  t.is(await membershipOf(ada), undefined)
  const taken = await eve.client.json('/groups.json', 'POST', {
    name: 'Other',
    groups_users: [{ user_id: cat.id, is_admin: true }],
  })
  t.is(taken.status, 200)
  const clash = await eve.client.json(`/groups/${groupId}.json`, 'PUT', { name: 'Other' })
  t.deepEqual(clash.json.body, {
    name: { group_unique: 'The name is already used by another group.' },
  })
  t.deepEqual(await sql('select name from groups where id = $1', [groupId]), [{ name: 'Crew' }])
})

test('refusals of the secrets sent with a new member, and of malformed changes: 4xx, nothing written', async (t) => {
  const { ada, bob, cat, dan, groupId, shareWithGroup, membershipOf, sql, api } = await setup(t)
  const first = await createPassword(ada, 'first', 'pw-1')
  const second = await createPassword(ada, 'second', 'pw-2')
  await shareWithGroup(ada, first.id, secretText('pw-1'))
  await shareWithGroup(ada, second.id, secretText('pw-2'))
  const other = await createPassword(ada, 'other')
  const attempt = (tamper: (s: Record<string, string>[]) => Record<string, string>[]) =>
    addMembers(ada, groupId, [{ member: cat, isAdmin: false }], tamper)
  const cases: [string, (s: Record<string, string>[]) => Record<string, string>[], unknown][] = [
    [
      'one missing',
      (s) => s.slice(1),
      { groups_users: { 0: { secrets: { all_missing: 'Some required secrets are missing.' } } } },
    ],
    [
      'one for a resource not needed',
      (s) => [...s, { ...s[0], resource_id: other.id }],
      {
        groups_users: {
          0: {
            secrets: {
              2: {
                resource_id: { only_missing: 'The user already has a secret for the resource.' },
              },
            },
          },
        },
      },
    ],
    [
      'one for another user',
      (s) => [...s, { ...s[0], user_id: dan.id }],
      {
        secrets: {
          2: { user_id: { same_user: 'The user_id does not match the user added to the group.' } },
        },
      },
    ],
    [
      'a duplicate',
      (s) => [...s, s[0]],
      {
        groups_users: {
          0: {
            secrets: {
              2: {
                resource_id: {
                  secret_unique: 'A secret already exists for the given user and resource.',
                },
              },
            },
          },
        },
      },
    ],
    [
      'not an OpenPGP message',
      (s) => [s[0], { ...s[1], data: 'hello' }],
      {
        groups_users: {
          0: {
            secrets: {
              1: {
                data: {
                  isValidOpenPGPMessage:
                    'The message should be a valid ASCII-armored OpenPGP message.',
                },
              },
            },
          },
        },
      },
    ],
    [
      'an oversized message',
      (s) => [s[0], { ...s[1], data: `${s[1].data}${'A'.repeat(200_000)}` }],
      {
        groups_users: {
          0: {
            secrets: {
              1: {
                data: {
                  isValidOpenPGPMessage:
                    'The message should be a valid ASCII-armored OpenPGP message.',
                },
              },
            },
          },
        },
      },
    ],
    [
      'malformed entries',
      (s) => [s[0], { resource_id: 'x', user_id: 42 } as never, 'junk' as never],
      {
        secrets: {
          1: {
            resource_id: { uuid: 'The resource identifier should be a valid UUID.' },
            user_id: { uuid: 'The user identifier should be a valid UUID.' },
            data: { _required: 'A message is required.' },
          },
          2: {
            resource_id: { _required: 'A resource identifier is required.' },
            user_id: { _required: 'A user identifier is required.' },
            data: { _required: 'A message is required.' },
          },
        },
      },
    ],
  ]
  for (const [label, tamper, errors] of cases) {
    const { update } = await attempt(tamper)
    t.is(update.status, 400, label)
    t.is(update.json.header.message, 'Could not validate group data.', label)
    t.like(update.json.body, errors as object, label)
  }
  // Encrypted for someone else's key.
  const { update: wrongKey } = await attempt((s) => s.map((entry) => ({ ...entry })))
  t.is(wrongKey.status, 200, 'the honest update passes after all the refusals')
  const dup = await ada.client.json(`/groups/${groupId}.json`, 'PUT', {
    groups_users: [{ user_id: dan.id, is_admin: false }],
    secrets: [
      {
        user_id: dan.id,
        resource_id: first.id,
        data: await encryptFor('x', [bob], ada),
      },
      {
        user_id: dan.id,
        resource_id: second.id,
        data: await encryptFor('x', [bob], ada),
      },
    ],
  })
  t.is(dup.status, 400)
  t.deepEqual(dup.json.body.groups_users[0].secrets[0], {
    data: { isEncryptedForRecipient: 'The message should be encrypted for the user it is for.' },
  })
  t.is(await membershipOf(dan), undefined)

  const malformed: [unknown, number][] = [
    [{ groups_users: 'all' }, 400],
    [{ groups_users: [{ user_id: 'nope', is_admin: false }] }, 400],
    [{ groups_users: [{ id: 'nope', delete: true }] }, 400],
    [{ groups_users: [{ id: (await membershipOf(bob))!.id, delete: 'yes' }] }, 400],
    [{ groups_users: [{ user_id: cat.id, is_admin: false }] }, 400],
    [{ groups_users: [{ user_id: dan.id }] }, 400],
    [
      {
        groups_users: [
          { user_id: dan.id, is_admin: false },
          { user_id: dan.id, is_admin: true },
        ],
      },
      400,
    ],
    [{ groups_users: [{ id: '8d1f6a0e-0000-4000-8000-000000000000', delete: true }] }, 400],
    [{ groups_users: [null, 7, [1]] }, 400],
    [{ secrets: { a: 1 } }, 400],
    [{ groups_users: Array(10_001).fill({}) }, 400],
  ]
  for (const [body, status] of malformed) {
    const response = await ada.client.json(`/groups/${groupId}.json`, 'PUT', body)
    t.is(response.status, status, JSON.stringify(body).slice(0, 100))
  }
  const ghost = await ada.client.json(`/groups/${groupId}.json`, 'PUT', {
    groups_users: [{ id: '8d1f6a0e-0000-4000-8000-000000000000', delete: true }],
  })
  t.deepEqual(ghost.json.body, {
    groups_users: { 0: { id: { exists: 'Cannot find the group user.' } } },
  })
  const twice = await ada.client.json(`/groups/${groupId}.json`, 'PUT', {
    groups_users: [{ user_id: cat.id, is_admin: false }],
  })
  t.deepEqual(twice.json.body, {
    groups_users: {
      0: { group_id: { group_user_unique: 'The user is already member of this group.' } },
    },
  })
  await sql('update users set active = false where id = $1', [dan.id])
  const inactive = await addMembers(ada, groupId, [{ member: dan, isAdmin: false }])
  t.is(inactive.dryRun.status, 400)
  t.deepEqual(inactive.dryRun.json.body, {
    groups_users: { 0: { user_id: { user_exists: 'Cannot find the user.' } } },
  })
  const badId = await ada.client.json('/groups/nope.json', 'PUT', {})
  t.is(badId.status, 400)
  t.is(badId.json.header.message, 'The group id is not valid.')
  const unknown = await ada.client.json(
    '/groups/8d1f6a0e-0000-4000-8000-000000000000.json',
    'PUT',
    {},
  )
  t.is(unknown.status, 404)
  t.is(unknown.json.header.message, 'The group does not exist.')
  const hugeName = await api.request(`/groups/${groupId}.json`, {
    method: 'PUT',
    role: 'admin',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'n'.repeat(100_000) }),
  })
  t.is(hugeName.status, 400)
  t.deepEqual(hugeName.json.body, {
    name: { maxLength: 'The name length should be maximum 255 characters.' },
  })
  t.is(api.logs.filter((line) => Number(line.level) >= 50).length, 0, 'no server error logged')
})

test('two concurrent updates of one group adding different members both apply, one after the other', async (t) => {
  const { ada, cat, dan, groupId, shareWithGroup, membershipOf } = await setup(t)
  for (const name of ['one', 'two', 'three']) {
    const resource = await createPassword(ada, name, `pw-${name}`)
    await shareWithGroup(ada, resource.id, secretText(`pw-${name}`))
  }
  const [forCat, forDan] = await Promise.all([
    addMembers(ada, groupId, [{ member: cat, isAdmin: false }]),
    addMembers(ada, groupId, [{ member: dan, isAdmin: true }]),
  ])
  for (const { update } of [forCat, forDan])
    t.true([200, 400, 409].includes(update.status), update.text)
  t.is(forCat.update.status === 200, (await membershipOf(cat)) !== undefined)
  t.is(forDan.update.status === 200, (await membershipOf(dan)) !== undefined)
  t.is(forCat.update.status, 200)
  t.is(forDan.update.status, 200)
  t.true((await membershipOf(dan))!.is_admin)
})

test('a share with the group and a member’s addition prepared at the same time: the second to run is refused', async (t) => {
  const { ada, bob, cat, groupId, shareWithGroup, membershipOf, sql } = await setup(t)
  const first = await createPassword(ada, 'first', 'pw-1')
  await shareWithGroup(ada, first.id, secretText('pw-1'))
  const second = await createPassword(ada, 'second', 'pw-2')
  // Both clients prepare their request before either is sent.
  const permissions = [{ aro: 'Group', aro_foreign_key: groupId, aco: 'Resource', type: 1 }]
  const simulated = await ada.client.json(`/share/simulate/resource/${second.id}.json`, 'POST', {
    permissions,
  })
  t.deepEqual(
    simulated.json.body.changes.added.map((a: { User: { id: string } }) => a.User.id),
    [bob.id],
  )
  const shareBody = {
    permissions,
    secrets: [
      {
        user_id: bob.id,
        resource_id: second.id,
        data: await encryptFor(secretText('pw-2'), [bob], ada),
      },
    ],
  }
  const addBody = {
    groups_users: [{ user_id: cat.id, is_admin: false }],
    secrets: [
      {
        user_id: cat.id,
        resource_id: first.id,
        data: await encryptFor(secretText('pw-1'), [cat], ada),
      },
    ],
  }
  const [shared, added] = await Promise.all([
    ada.client.json(`/share/resource/${second.id}.json`, 'PUT', shareBody),
    ada.client.json(`/groups/${groupId}.json`, 'PUT', addBody),
  ])
  t.deepEqual(
    [shared.status, added.status].sort(),
    [200, 400],
    `${shared.text.slice(0, 200)} ${added.text.slice(0, 200)}`,
  )
  t.is(added.status === 200, (await membershipOf(cat)) !== undefined)
  const groupOnSecond = await sql(
    'select 1 from permissions where aco_foreign_key = $1 and aro_foreign_key = $2',
    [second.id, groupId],
  )
  t.is(shared.status === 200, groupOnSecond.length === 1)
})
