// The data the fuzzer starts from: a user and an administrator it sends as, two more users, a
// group, passwords, a folder, a comment and a tag, all made through the real routes, so that
// the ids it reuses name real rows. Then the checks that must hold after a run.
import type { TestApi } from '../../helpers/api.ts'
import { gpgAuthLogin, TestClient } from '../../helpers/client.ts'
import { secretInvariantViolations } from '../../helpers/invariants.ts'
import { jwtLogin } from '../../helpers/jwt.ts'
import { createPassword, type Member, makeGroup, sqlOf, team } from '../../helpers/vault.ts'

export const APP_URL = 'https://vault.keyward.test/'
export const JWT_DOMAIN = 'https://vault.keyward.test'

export interface World {
  members: Member[]
  user: Member
  admin: Member
  /** Ids the fuzzer must never aim at: the accounts it signs in with (to send, and to probe). */
  protectedIds: Set<string>
  /** Ids of rows made here, for the fuzzer's pool. */
  seedIds: string[]
}

export const makeWorld = async (api: TestApi): Promise<World> => {
  const members = await team(api, ['ada', 'root', 'bob', 'carol'], 'root')
  const [user, admin, bob, carol] = members
  const group = await makeGroup(api, 'ops', [bob, user, carol])
  const seedIds = [group]
  for (const owner of [user, bob]) {
    const resource = await createPassword(owner, `${owner.username.split('@')[0]}-item`)
    seedIds.push(resource.id)
    const comment = await owner.client.json(`/comments/resource/${resource.id}.json`, 'POST', {
      content: 'hello',
    })
    if (comment.status === 200) seedIds.push(comment.json.body.id)
    const tags = await owner.client.json(`/tags/${resource.id}.json`, 'POST', {
      tags: ['work', '#shared'],
    })
    for (const tag of tags.json?.body ?? []) seedIds.push(tag.id)
    const folder = await owner.client.json('/folders.json', 'POST', { name: 'Folder' })
    if (folder.status === 200) seedIds.push(folder.json.body.id)
  }
  return { members, user, admin, protectedIds: new Set(members.map((m) => m.id)), seedIds }
}

/**
 * The database's own invariants after a run: secrets match who can read (`secretInvariantViolations`),
 * and no row points at one that is gone.
 */
export const invariantViolations = async (api: TestApi): Promise<string[]> => {
  const sql = sqlOf(api)
  const orphans = await sql(`
    select 'secret without its resource ' || s.id as problem from secrets s
      where not exists (select 1 from resources r where r.id = s.resource_id)
    union all
    select 'secret of a deleted resource ' || s.id from secrets s
      join resources r on r.id = s.resource_id where r.deleted
    union all
    select 'permission without its item ' || p.id from permissions p
      where p.aco = 'Resource' and not exists (select 1 from resources r where r.id = p.aco_foreign_key)
      or p.aco = 'Folder' and not exists (select 1 from folders f where f.id = p.aco_foreign_key)
    union all
    select 'permission without its user or group ' || p.id from permissions p
      where p.aro = 'User' and not exists (select 1 from users u where u.id = p.aro_foreign_key and not u.deleted)
      or p.aro = 'Group' and not exists (select 1 from groups g where g.id = p.aro_foreign_key and not g.deleted)
    union all
    select 'membership without its group or user ' || gu.id from groups_users gu
      where not exists (select 1 from groups g where g.id = gu.group_id and not g.deleted)
      or not exists (select 1 from users u where u.id = gu.user_id and not u.deleted)
    union all
    select 'live group without a manager ' || g.id from groups g
      where not g.deleted and not exists (select 1 from groups_users gu where gu.group_id = g.id and gu.is_admin)
    union all
    select 'shared resource without an owner ' || r.id from resources r
      where not r.deleted and not exists (select 1 from permissions p where p.aco_foreign_key = r.id and p.type = 15)`)
  return [...(await secretInvariantViolations(api)), ...orphans.map((row) => row.problem as string)]
}

/** Every account still able to sign in, both ways, unless the run suspended or deleted it. */
export const signInFailures = async (api: TestApi, world: World): Promise<string[]> => {
  const sql = sqlOf(api)
  const failures: string[] = []
  for (const member of world.members) {
    const [row] = await sql('select active, deleted, disabled from users where id = $1', [
      member.id,
    ])
    if (!row?.active || row.deleted || row.disabled) {
      if (world.protectedIds.has(member.id))
        failures.push(`${member.username} was suspended or deleted`)
      continue
    }
    const { stage2 } = await gpgAuthLogin(new TestClient(api.url), member)
    if (stage2.json?.header?.status !== 'success')
      failures.push(
        `${member.username}: GPGAuth sign-in answered ${stage2.status} ${stage2.text.slice(0, 200)}`,
      )
    const jwt = await jwtLogin(new TestClient(api.url), member.id, member, JWT_DOMAIN)
    if (!jwt.answer)
      failures.push(
        `${member.username}: JWT sign-in answered ${jwt.response.status} ${jwt.response.text.slice(0, 200)}`,
      )
  }
  return failures
}
