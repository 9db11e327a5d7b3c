// Folders and each user's own tree: creating, listing, renaming, deleting and sharing folders,
// moving items, the per-user placement passbolt keeps (an item shared into a folder the user
// cannot see lands at their root; a resource shared inside a folder the user sees lands in it),
// cycles refused even between concurrent moves.
import test, { type ExecutionContext } from 'ava'
import { startTestApi } from '../helpers/api.ts'
import { clientValidation } from '../helpers/client-entities.ts'
import { countQueries } from '../helpers/queries.ts'
import {
  createPassword,
  encryptFor,
  type Member,
  makeGroup,
  secretInvariantViolations,
  sqlOf,
  team,
} from '../helpers/vault.ts'

const setup = async (t: ExecutionContext) => {
  const api = await startTestApi(t)
  const [ada, bob, cat] = await team(api, ['ada', 'bob', 'cat'])
  t.teardown(async () => {
    const violations = await secretInvariantViolations(api).catch(() => [])
    if (violations.length) throw new Error(`secret invariant broken: ${violations.join(', ')}`)
  })
  return { api, ada, bob, cat, sql: sqlOf(api) }
}

const createFolder = async (member: Member, name: string, parent: string | null = null) => {
  const response = await member.client.json('/folders.json?contain[permission]=1', 'POST', {
    name,
    folder_parent_id: parent,
  })
  if (response.status !== 200) throw new Error(`folder: ${response.text}`)
  return response.json.body
}

const move = (member: Member, model: 'resource' | 'folder', id: string, parent: string | null) =>
  member.client.json(`/move/${model}/${id}.json`, 'PUT', { folder_parent_id: parent })

/** Shares an item as the extension does: simulate (resources), encrypt for the added users, share. */
const shareWith = async (
  owner: Member,
  model: 'resource' | 'folder',
  id: string,
  permissions: Record<string, unknown>[],
  everyone: Member[],
) => {
  if (model === 'folder')
    return owner.client.json(`/share/folder/${id}.json`, 'PUT', { permissions })
  const simulated = await owner.client.json(`/share/simulate/resource/${id}.json`, 'POST', {
    permissions,
  })
  const secrets = await Promise.all(
    simulated.json.body.changes.added.map(
      async ({ User: { id: userId } }: { User: { id: string } }) => ({
        user_id: userId,
        data: await encryptFor('{"password":"p"}', [everyone.find((m) => m.id === userId)!], owner),
      }),
    ),
  )
  return owner.client.json(`/share/resource/${id}.json`, 'PUT', { permissions, secrets })
}

const parentOf = async (member: Member, model: 'resources' | 'folders', id: string) => {
  const response = await member.client.fetch(`/${model}/${id}.json`)
  return response.status === 200 ? response.json.body.folder_parent_id : `status ${response.status}`
}

test('folders are created, listed with their contains, renamed and deleted; answers pass FolderEntity', async (t) => {
  const { ada } = await setup(t)
  const root = await createFolder(ada, 'Root')
  t.like(root, { name: 'Root', folder_parent_id: null, personal: true, created_by: ada.id })
  t.is(root.permission.type, 15)
  const child = await createFolder(ada, 'Child', root.id)
  t.is(child.folder_parent_id, root.id)
  const password = await createPassword(ada, 'inside')
  t.is(
    (await move(ada, 'resource', password.id, root.id)).json.header.message,
    'The object has been moved successfully.',
  )
  const list = await ada.client.fetch(
    '/folders.json?contain[children_resources]=1&contain[children_folders]=1&contain[creator.profile]=1&contain[permissions.user.profile]=1&contain[permission]=1',
  )
  const listedRoot = list.json.body.find((f: { id: string }) => f.id === root.id)
  t.deepEqual(
    listedRoot.children_folders.map((f: { name: string }) => f.name),
    ['Child'],
  )
  t.deepEqual(
    listedRoot.children_resources.map((r: { name: string }) => r.name),
    ['inside'],
  )
  t.is(listedRoot.creator.profile.first_name, 'Test')
  t.is(listedRoot.permissions[0].user.username, 'ada@keyward.test')
  for (const folder of list.json.body)
    t.deepEqual(await clientValidation('FolderEntity', folder), {})
  const atRoot = await ada.client.fetch('/folders.json?filter[has-parent]=0')
  t.deepEqual(
    atRoot.json.body.map((f: { name: string }) => f.name),
    ['Root'],
  )
  const inRoot = await ada.client.fetch(`/resources.json?filter[has-parent][]=${root.id}`)
  t.deepEqual(
    inRoot.json.body.map((r: { name: string }) => r.name),
    ['inside'],
  )
  t.deepEqual(
    (await ada.client.fetch('/folders.json?filter[search]=chi')).json.body.map(
      (f: { name: string }) => f.name,
    ),
    ['Child'],
  )
  const renamed = await ada.client.json(`/folders/${child.id}.json`, 'PUT', { name: 'Renamed' })
  t.is(renamed.json.header.message, 'The folder has been updated successfully.')
  t.is(renamed.json.body.name, 'Renamed')
  const bad = await ada.client.json('/folders.json', 'POST', { name: '' })
  t.truthy(bad.json.body.name._empty)
  t.truthy((await ada.client.json('/folders.json', 'POST', {})).json.body.name._required)
  t.truthy(
    (await ada.client.json('/folders.json', 'POST', { name: 'x'.repeat(257) })).json.body.name
      .maxLength,
  )
  const deleted = await ada.client.fetch(`/folders/${root.id}.json`, { method: 'DELETE' })
  t.is(deleted.json.header.message, 'The folder has been deleted successfully.')
  t.is(await parentOf(ada, 'folders', child.id), null, 'its content went to the root')
  t.is(await parentOf(ada, 'resources', password.id), null)
})

test('a cascade delete takes what the caller may delete inside and moves the rest to the root', async (t) => {
  const { ada, bob, sql } = await setup(t)
  const top = await createFolder(ada, 'Top')
  const sub = await createFolder(ada, 'Sub', top.id)
  const mine = await createPassword(ada, 'mine')
  await move(ada, 'resource', mine.id, sub.id)
  const theirs = await createPassword(bob, 'theirs')
  await shareWith(
    bob,
    'resource',
    theirs.id,
    [{ aro: 'User', aro_foreign_key: ada.id, type: 1 }],
    [ada, bob],
  )
  await move(ada, 'resource', theirs.id, sub.id)
  const response = await ada.client.fetch(`/folders/${top.id}.json?cascade=1`, { method: 'DELETE' })
  t.is(response.status, 200)
  t.deepEqual(await sql('select name from folders'), [])
  t.deepEqual(await sql('select deleted from resources where id = $1', [mine.id]), [
    { deleted: true },
  ])
  t.is(await parentOf(ada, 'resources', theirs.id), null, 'read only: kept, at the root')
})

test('an item shared with a user lands in a folder they can see, or at their root', async (t) => {
  const { ada, bob, cat } = await setup(t)
  const everyone = [ada, bob, cat]
  const shared = await createFolder(ada, 'Shared')
  const secret = await createFolder(ada, 'Private')
  t.is(
    (
      await shareWith(
        ada,
        'folder',
        shared.id,
        [{ aro: 'User', aro_foreign_key: bob.id, type: 7 }],
        everyone,
      )
    ).status,
    200,
  )
  t.is(await parentOf(bob, 'folders', shared.id), null)
  const inShared = await createPassword(ada, 'in-shared')
  await move(ada, 'resource', inShared.id, shared.id)
  const inPrivate = await createPassword(ada, 'in-private')
  await move(ada, 'resource', inPrivate.id, secret.id)
  for (const resource of [inShared, inPrivate])
    t.is(
      (
        await shareWith(
          ada,
          'resource',
          resource.id,
          [{ aro: 'User', aro_foreign_key: bob.id, type: 1 }],
          everyone,
        )
      ).status,
      200,
    )
  t.is(await parentOf(bob, 'resources', inShared.id), shared.id, 'in the folder bob sees')
  t.is(await parentOf(bob, 'resources', inPrivate.id), null, 'bob cannot see Private: his root')
  t.is(await parentOf(ada, 'resources', inPrivate.id), secret.id, 'ada keeps her place')
  // Created inside a shared folder and shared like the folder, as the extension does.
  const created = await ada.client.json('/resources.json', 'POST', {
    name: 'new-in-shared',
    resource_type_id: 'a28a04cd-6f53-518a-967c-9963bf9cec51',
    folder_parent_id: shared.id,
    secrets: [{ data: await encryptFor('{"password":"p"}', [ada], ada) }],
  })
  t.is(created.json.body.folder_parent_id, shared.id)
  await shareWith(
    ada,
    'resource',
    created.json.body.id,
    [{ aro: 'User', aro_foreign_key: bob.id, type: 7 }],
    everyone,
  )
  t.is(await parentOf(bob, 'resources', created.json.body.id), shared.id)
  const readOnly = await createFolder(ada, 'ReadOnly')
  await shareWith(
    ada,
    'folder',
    readOnly.id,
    [{ aro: 'User', aro_foreign_key: bob.id, type: 1 }],
    everyone,
  )
  const refused = await bob.client.json('/folders.json', 'POST', {
    name: 'x',
    folder_parent_id: readOnly.id,
  })
  t.is(refused.json.header.message, 'Could not validate folder data.')
  t.is(
    refused.json.body.folder_parent_id.has_folder_access,
    'You are not allowed to create content into the parent folder.',
  )
})

test('a group gaining a folder brings it, and what members see inside it, into their trees', async (t) => {
  const { api, ada, bob, cat } = await setup(t)
  const everyone = [ada, bob, cat]
  const group = await makeGroup(api, 'Team', [bob, cat])
  const folder = await createFolder(ada, 'Team folder')
  const resource = await createPassword(ada, 'team-password')
  await move(ada, 'resource', resource.id, folder.id)
  await shareWith(
    ada,
    'resource',
    resource.id,
    [{ aro: 'User', aro_foreign_key: cat.id, type: 1 }],
    everyone,
  )
  t.is(await parentOf(cat, 'resources', resource.id), null, 'cat cannot see the folder yet')
  t.is(
    (
      await shareWith(
        ada,
        'folder',
        folder.id,
        [{ aro: 'Group', aro_foreign_key: group, type: 1 }],
        everyone,
      )
    ).status,
    200,
  )
  for (const member of [bob, cat]) t.is(await parentOf(member, 'folders', folder.id), null)
  t.is(
    await parentOf(cat, 'resources', resource.id),
    folder.id,
    'the folder gathered what cat sees inside it',
  )
})

test('moving out of a shared folder needs update on it; a folder cannot go into itself or below', async (t) => {
  const { ada, bob, cat } = await setup(t)
  const everyone = [ada, bob, cat]
  const parent = await createFolder(ada, 'Parent')
  const child = await createFolder(ada, 'Child', parent.id)
  const grandchild = await createFolder(ada, 'Grandchild', child.id)
  const cycle = await move(ada, 'folder', parent.id, grandchild.id)
  t.is(cycle.status, 400)
  t.deepEqual(cycle.json.body, {
    folder_parent_id: { cycle: 'The folder cannot be moved into one of its descendants.' },
  })
  t.is((await move(ada, 'folder', parent.id, parent.id)).status, 400)
  const resource = await createPassword(ada, 'r')
  await move(ada, 'resource', resource.id, parent.id)
  await shareWith(
    ada,
    'folder',
    parent.id,
    [{ aro: 'User', aro_foreign_key: bob.id, type: 1 }],
    everyone,
  )
  await shareWith(
    ada,
    'resource',
    resource.id,
    [{ aro: 'User', aro_foreign_key: bob.id, type: 7 }],
    everyone,
  )
  t.is(await parentOf(bob, 'resources', resource.id), parent.id)
  const out = await move(bob, 'resource', resource.id, null)
  t.deepEqual(out.json.body, {
    folder_parent_id: {
      has_folder_access: 'You are not allowed to move this item out of its parent folder.',
    },
  })
  t.is((await move(ada, 'resource', resource.id, null)).status, 200)
  t.is(
    await parentOf(bob, 'resources', resource.id),
    null,
    'moved for those who had it in the same place',
  )
  t.is((await move(cat, 'resource', resource.id, null)).status, 404)
  t.truthy(
    (await move(ada, 'resource', resource.id, '00000000-0000-4000-8000-000000000000')).json.body
      .folder_parent_id.folder_exists,
  )
  t.truthy(
    (await ada.client.json(`/move/resource/${resource.id}.json`, 'PUT', {})).json.body
      .folder_parent_id._required,
  )
  t.is(
    (await ada.client.json('/move/resource/nope.json', 'PUT', { folder_parent_id: null })).status,
    400,
  )
})

test('crossing moves (A into B while B into A) never make a cycle: one wins', async (t) => {
  const { ada, sql } = await setup(t)
  for (let round = 0; round < 5; round++) {
    const a = await createFolder(ada, `A${round}`)
    const b = await createFolder(ada, `B${round}`)
    const results = await Promise.all([
      move(ada, 'folder', a.id, b.id),
      move(ada, 'folder', b.id, a.id),
    ])
    t.deepEqual(results.map((r) => r.status).sort(), [200, 400], `round ${round}`)
    const cycles = await sql(
      `with recursive up(start, folder_id, depth) as (
         select foreign_id, folder_parent_id, 1 from folders_relations where folder_parent_id is not null
         union all
         select up.start, fr.folder_parent_id, up.depth + 1 from up
         join folders_relations fr on fr.foreign_id = up.folder_id and fr.folder_parent_id is not null
         where up.depth < 50 and up.folder_id <> up.start)
       select count(*)::int as n from up where folder_id = start`,
    )
    t.deepEqual(cycles, [{ n: 0 }])
  }
})

test('moves that close a longer cycle together (A into B/B1 while B into A/A1) never make one', async (t) => {
  const { ada, sql } = await setup(t)
  for (let round = 0; round < 5; round++) {
    const a = await createFolder(ada, `A${round}`)
    const a1 = await createFolder(ada, `A${round}.1`, a.id)
    const b = await createFolder(ada, `B${round}`)
    const b1 = await createFolder(ada, `B${round}.1`, b.id)
    // Neither move alone is a cycle; both together would be. Neither locks the other's item
    // unless it holds the folders above its destination.
    const results = await Promise.all([
      move(ada, 'folder', a.id, b1.id),
      move(ada, 'folder', b.id, a1.id),
    ])
    t.deepEqual(results.map((r) => r.status).sort(), [200, 400], `round ${round}`)
    t.truthy(results.find((r) => r.status === 400)!.json.body.folder_parent_id.cycle)
    const cycles = await sql(
      `with recursive up(start, folder_id, depth) as (
         select foreign_id, folder_parent_id, 1 from folders_relations where folder_parent_id is not null
         union all
         select up.start, fr.folder_parent_id, up.depth + 1 from up
         join folders_relations fr on fr.foreign_id = up.folder_id and fr.folder_parent_id is not null
         where up.depth < 50 and up.folder_id <> up.start)
       select count(*)::int as n from up where folder_id = start`,
    )
    t.deepEqual(cycles, [{ n: 0 }])
  }
})

test('a folder list costs the same statements for 5 folders and 60, whatever the contains', async (t) => {
  const { api, ada } = await setup(t)
  const url =
    '/folders.json?contain[permission]=1&contain[children_folders]=1&contain[children_resources]=1&contain[creator]=1&contain[permissions.user.profile]=1'
  let parent: string | null = null
  const make = async (count: number) => {
    for (let i = 0; i < count; i++)
      parent = (await createFolder(ada, `f${i}`, i % 6 === 0 ? null : parent)).id
  }
  await make(5)
  await ada.client.fetch(url)
  const small = await countQueries(api, () => ada.client.fetch(url))
  await make(55)
  await ada.client.fetch(url)
  const large = await countQueries(api, () => ada.client.fetch(url))
  t.is(large.result.json.body.length, 60)
  t.is(large.statements.length, small.statements.length)
})
