// Every optional plugin can be left out: with each one disabled in turn (and whatever cannot run
// without it), the server boots on the same database and the core of the product still works
// for a real client: sign in with GPGAuth, list passwords, create one, share it.
import test from 'ava'
import { assemblePlugins } from '../../api/plugin-loader.ts'
import { plugins } from '../../plugins/index.ts'
import { startTestApi, testAuthPlugin } from '../helpers/api.ts'
import { createTestDatabase } from '../helpers/database.ts'
import {
  createPassword,
  decryptAs,
  encryptFor,
  secretInvariantViolations,
  team,
} from '../helpers/vault.ts'

const OPTIONAL = [
  'tags',
  'comments',
  'favorites',
  'folders',
  'folder-tree',
  'avatars',
  'mfa',
  'metadata',
  'email-notifications',
  'self-registration',
]

/** The plugin and every plugin that cannot run without it. */
const withDependents = (name: string): string[] => {
  const out = new Set([name])
  for (let grown = true; grown; ) {
    grown = false
    for (const plugin of plugins)
      if (!out.has(plugin.name) && plugin.dependsOn?.some((d) => out.has(d))) {
        out.add(plugin.name)
        grown = true
      }
  }
  return [...out]
}

test('none of the optional plugins is needed by the core: only plugins that extend it depend on it', (t) => {
  const core = ['users', 'auth', 'resources', 'share', 'secrets', 'permissions', 'setup']
  for (const name of OPTIONAL) {
    const gone = withDependents(name)
    t.deepEqual(
      gone.filter((plugin) => core.includes(plugin)),
      [],
      `disabling ${name} takes ${gone.join(', ')}`,
    )
    t.notThrows(() => assemblePlugins(plugins, gone), name)
  }
})

test('with each optional plugin disabled in turn, a client signs in, lists, creates and shares a password', async (t) => {
  const databaseUrl = await createTestDatabase(t)
  const plaintext = '{"password":"pw","description":"notes"}'
  for (const name of OPTIONAL) {
    const disabled = withDependents(name)
    const api = await startTestApi(t, {
      databaseUrl,
      plugins: [...plugins, testAuthPlugin],
      env: { KEYWARD_DISABLED_PLUGINS: disabled.join(',') },
    })
    const slug = name.replace(/[^a-z]/g, '')
    const [ada, bob] = await team(api, [`ada${slug}`, `bob${slug}`])
    const settings = await ada.client.fetch('/settings.json')
    const lastError = api.logs.filter((line) => Number(line.level) >= 50).at(-1)
    t.is(settings.status, 200, `${name}: settings ${JSON.stringify(lastError?.err ?? '')}`)
    const me = await ada.client.fetch('/users/me.json')
    t.is(me.json.body?.username, ada.username, `${name}: ${me.text}`)

    const before = await ada.client.fetch('/resources.json?contain[permission]=1')
    t.is(before.status, 200, `${name}: list ${before.text}`)
    t.deepEqual(before.json.body, [], name)

    const resource = await createPassword(ada, `item-${slug}`, 'pw', '?contain[permission]=1')
    t.is(resource.permission.type, 15, name)

    const permissions = [
      {
        aco: 'Resource',
        aro: 'User',
        aco_foreign_key: resource.id,
        aro_foreign_key: bob.id,
        type: 1,
      },
    ]
    const simulated = await ada.client.json(
      `/share/simulate/resource/${resource.id}.json`,
      'POST',
      { permissions },
    )
    t.is(simulated.status, 200, `${name}: simulate ${simulated.text}`)
    const shared = await ada.client.json(`/share/resource/${resource.id}.json`, 'PUT', {
      permissions,
      secrets: [
        {
          user_id: bob.id,
          resource_id: resource.id,
          data: await encryptFor(plaintext, [bob], ada),
        },
      ],
    })
    t.is(shared.status, 200, `${name}: share ${shared.text}`)

    const list = await bob.client.fetch('/resources.json?contain[permission]=1')
    t.deepEqual(
      list.json.body.map((row: { id: string }) => row.id),
      [resource.id],
      name,
    )
    const secret = await bob.client.fetch(`/secrets/resource/${resource.id}.json`)
    t.is(await decryptAs(secret.json.body.data, bob), plaintext, name)
    t.deepEqual(await secretInvariantViolations(api), [], name)
    await api.close()
  }
})
