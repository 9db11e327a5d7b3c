// Tags and comments under encrypted metadata, as passbolt's community edition keeps them: the
// official clients' v5 preset leaves them v4, so a v5 password takes clear tags and comments;
// encrypted tags are refused whatever the settings say (no edition of the server the clients
// talk to here keeps them), and turning v4 tags off leaves no way to tag. Every refusal writes
// nothing. Real HTTP, PostgreSQL and OpenPGP.
import test from 'ava'
import { startTestApi } from '../helpers/api.ts'
import { createMetadataKey, generateMetadataKey, resourceMetadata } from '../helpers/metadata.ts'
import { encryptFor, type Member, sqlOf, team, V5_DEFAULT } from '../helpers/vault.ts'

/** The clients' "v5 default" preset (`MetadataTypesSettingsEntity.createFromV5Default`). */
const CLIENTS_V5_PRESET = {
  default_resource_types: 'v5',
  default_folder_type: 'v4',
  default_tag_type: 'v4',
  default_comment_type: 'v4',
  allow_creation_of_v5_resources: true,
  allow_creation_of_v5_folders: false,
  allow_creation_of_v5_tags: false,
  allow_creation_of_v5_comments: false,
  allow_creation_of_v4_resources: false,
  allow_creation_of_v4_folders: true,
  allow_creation_of_v4_tags: true,
  allow_creation_of_v4_comments: true,
  allow_v4_v5_upgrade: false,
  allow_v5_v4_downgrade: false,
}

const saveTypes = async (admin: Member, settings: Record<string, unknown>) => {
  const saved = await admin.client.json('/metadata/types/settings.json', 'POST', settings)
  if (saved.status !== 200) throw new Error(saved.text)
}

test('a v5 password takes clear tags and comments; encrypted tags are refused and write nothing', async (t) => {
  const api = await startTestApi(t)
  const sql = sqlOf(api)
  const [admin, ada] = await team(api, ['admin', 'ada'], 'admin')
  const key = await generateMetadataKey()
  const keyId = await createMetadataKey(api, admin, key)
  await saveTypes(admin, CLIENTS_V5_PRESET)
  const created = await ada.client.json('/resources.json', 'POST', {
    resource_type_id: V5_DEFAULT,
    metadata_key_type: 'shared_key',
    metadata_key_id: keyId,
    metadata: await resourceMetadata(V5_DEFAULT, { name: 'bank' }, key),
    secrets: [{ data: await encryptFor('{"password":"p"}', [ada], ada) }],
  })
  t.is(created.status, 200, created.text)
  const resourceId = created.json.body.id as string

  const tagged = await ada.client.json(`/tags/${resourceId}.json`, 'POST', { tags: ['banking'] })
  t.is(tagged.status, 200, tagged.text)
  const listed = (await ada.client.fetch('/resources.json?contain[tag]=1')).json.body
  t.deepEqual(
    listed.map((row: { tags: { slug: string }[] }) => row.tags.map((tag) => tag.slug)),
    [['banking']],
  )
  t.like(listed[0], { metadata_key_type: 'shared_key' })
  const commented = await ada.client.json(`/comments/resource/${resourceId}.json`, 'POST', {
    content: 'Rotated after the audit.',
  })
  t.is(commented.status, 200, commented.text)
  t.deepEqual(await sql('select content from comments'), [{ content: 'Rotated after the audit.' }])

  const tagsBefore = await sql('select id, slug, metadata from tags order by id')
  const encryptedTag = {
    metadata: await encryptFor(JSON.stringify({ slug: 'secret' }), [key]),
    metadata_key_id: keyId,
    metadata_key_type: 'shared_key',
    is_shared: false,
  }
  const v5Tag = await ada.client.json(`/tags/${resourceId}.json`, 'POST', { tags: [encryptedTag] })
  t.is(v5Tag.status, 400)
  t.is(v5Tag.json.header.message, 'Tag creation/modification with encrypted metadata not allowed.')

  // An administrator allowing only v5 tags: the server keeps no encrypted tag, so none can be added.
  await saveTypes(admin, {
    ...CLIENTS_V5_PRESET,
    default_tag_type: 'v5',
    allow_creation_of_v5_tags: true,
    allow_creation_of_v4_tags: false,
  })
  const v4Tag = await ada.client.json(`/tags/${resourceId}.json`, 'POST', {
    tags: ['banking', 'audit'],
  })
  t.is(v4Tag.status, 400)
  t.is(v4Tag.json.header.message, 'Tag creation with cleartext metadata not allowed.')
  const stillV5 = await ada.client.json(`/tags/${resourceId}.json`, 'POST', {
    tags: [encryptedTag],
  })
  t.is(
    stillV5.json.header.message,
    'Tag creation/modification with encrypted metadata not allowed.',
  )
  t.deepEqual(await sql('select id, slug, metadata from tags order by id'), tagsBefore)
  t.deepEqual(
    (await sql('select t.slug from resources_tags rt join tags t on t.id = rt.tag_id')).map(
      (row) => row.slug,
    ),
    ['banking'],
  )
})
