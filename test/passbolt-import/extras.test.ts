// What moves beside the passwords: comments, personal and shared tags, profile pictures (from the
// database and from passbolt's avatar cache), organisation settings with the SMTP password
// passbolt encrypted to its server key, each user's TOTP enrolment, and custom roles' UI rights.
// Checked through Keyward's own API after the move, as the clients will read them.
import { randomUUID } from 'node:crypto'
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import test, { type ExecutionContext } from 'ava'
import * as openpgp from 'openpgp'
import { generate } from 'otplib'
import sharp from 'sharp'
import { formatReport, migrateFromPassbolt } from '../../plugins/passbolt-import/index.ts'
import { TestClient } from '../helpers/client.ts'
import {
  buildOrganisation,
  CREATED,
  insertOrganizationSetting,
  migratedTarget,
  type Person,
  stamps,
  startMigratedApi,
  tempDir,
} from './organisation.ts'

const TOTP_SECRET = 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP'
const SMTP_PASSWORD = 'smtp-pässword "quoted"'

const picture = (colour: string) =>
  sharp({ create: { width: 320, height: 240, channels: 3, background: colour } })
    .jpeg()
    .toBuffer()

/** The organisation of the other tests, with what a year of use leaves beside the passwords. */
const buildLivedInOrganisation = async (t: ExecutionContext) => {
  const org = await buildOrganisation(t)
  const { db } = org
  const { ada, bob, dave } = org.people
  const serverKey = {
    privateKey: await openpgp.readPrivateKey({
      armoredKey: readFileSync(join(org.gpgDir, 'serverkey_private.asc'), 'utf8'),
    }),
    publicKey: await openpgp.readKey({
      armoredKey: readFileSync(join(org.gpgDir, 'serverkey.asc'), 'utf8'),
    }),
  }
  const profileOf = async (person: Person) => {
    const [[row]] = (await db.run('SELECT id FROM profiles WHERE user_id = ?', [person.id])) as [
      { id: string }[],
    ]
    return row.id
  }
  const ids = {
    question: randomUUID(),
    answer: randomUUID(),
    encrypted: randomUUID(),
    personalTag: randomUUID(),
    sharedTag: randomUUID(),
    davesTag: randomUUID(),
    davesLink: randomUUID(),
    adaAvatar: randomUUID(),
    bobAvatar: randomUUID(),
    scim: randomUUID(),
    davesMfa: randomUUID(),
    exportRight: randomUUID(),
  }

  // A question on the shared password and its answer; an encrypted comment Keyward cannot keep.
  const comment = (id: string, author: Person, content: string, extra = {}) =>
    db.insert('comments', {
      id,
      foreign_key: org.ids.shared,
      foreign_model: 'Resource',
      content,
      user_id: author.id,
      created_by: author.id,
      modified_by: author.id,
      ...stamps,
      ...extra,
    })
  await comment(ids.question, bob, 'Which floor is this router on?')
  await comment(ids.answer, ada, 'Second, by the printer.', { parent_id: ids.question })
  await comment(ids.encrypted, ada, '', { data: '-----BEGIN PGP MESSAGE-----' })

  // Bob's own tag and the team's shared one on the shared password; deleted Dave's own tag. Ada
  // links Bob's tag too: passbolt keeps one personal tag a slug, Keyward one a user and slug.
  for (const [id, slug, shared] of [
    [ids.personalTag, 'router', 0],
    [ids.sharedTag, '#office', 1],
    [ids.davesTag, 'gone', 0],
  ] as const)
    await db.insert('tags', { id, slug, is_shared: shared })
  for (const [id, tag, user] of [
    [randomUUID(), ids.personalTag, bob.id],
    [randomUUID(), ids.personalTag, ada.id],
    [randomUUID(), ids.sharedTag, null],
    [ids.davesLink, ids.davesTag, dave.id],
  ] as const)
    await db.insert('resources_tags', {
      id,
      resource_id: org.ids.shared,
      tag_id: tag,
      user_id: user,
      created: CREATED,
    })

  // Ada's picture is in the database; Bob's only in passbolt's avatar cache folder.
  await db.insert('avatars', {
    id: ids.adaAvatar,
    profile_id: await profileOf(ada),
    data: await picture('#c0392b'),
    ...stamps,
  })
  await db.insert('avatars', {
    id: ids.bobAvatar,
    profile_id: await profileOf(bob),
    data: null,
    ...stamps,
  })
  const imagesDir = tempDir(t)
  mkdirSync(join(imagesDir, ids.bobAvatar))
  writeFileSync(join(imagesDir, ids.bobAvatar, 'medium.jpg'), await picture('#2980b9'))

  // Organisation settings as passbolt stores them: SMTP encrypted to and signed by its key.
  const smtp = (await openpgp.encrypt({
    message: await openpgp.createMessage({
      text: JSON.stringify({
        sender_name: 'Passbolt',
        sender_email: 'no-reply@example.com',
        host: 'smtp.example.com',
        tls: true,
        port: '587',
        client: null,
        username: 'mailer',
        password: SMTP_PASSWORD,
      }),
    }),
    encryptionKeys: serverKey.publicKey,
    signingKeys: serverKey.privateKey,
  })) as string
  const passwordPolicies = {
    default_generator: 'passphrase',
    source: 'db',
    password_generator_settings: {
      length: 24,
      look_alike: true,
      min_length: 8,
      max_length: 128,
      mask_upper: true,
      mask_lower: true,
      mask_digit: true,
      mask_parenthesis: true,
      mask_emoji: false,
      mask_char1: true,
      mask_char2: true,
      mask_char3: true,
      mask_char4: true,
      mask_char5: true,
      exclude_look_alike_chars: true,
    },
    passphrase_generator_settings: {
      words: 11,
      word_separator: '-',
      word_case: 'lowercase',
      min_words: 4,
      max_words: 40,
    },
    external_dictionary_check: true,
  }
  for (const [property, value, id] of [
    ['smtp', smtp, randomUUID()],
    ['mfa', JSON.stringify({ providers: { totp: true, yubikey: false, duo: true } }), randomUUID()],
    ['locale', 'fr-FR', randomUUID()],
    ['passwordPolicies', JSON.stringify(passwordPolicies), randomUUID()],
    ['scim', '{"enabled":true}', ids.scim],
  ])
    await insertOrganizationSetting(db, ada.id, { id, property, value })

  // Bob enrolled TOTP and picked a theme; Dave, deleted since, had enrolled too.
  const mfa = (when: unknown) =>
    JSON.stringify({
      providers: ['totp'],
      totp: {
        otpProvisioningUri: `otpauth://totp/Passbolt:bob%40example.com?secret=${TOTP_SECRET}&issuer=Passbolt`,
        verified: when,
      },
    })
  for (const [id, user, property, value] of [
    [randomUUID(), bob, 'mfa', mfa('2024-03-05T10:20:30+00:00')],
    [randomUUID(), bob, 'theme', 'midgar'],
    [randomUUID(), ada, 'locale', 'fr-FR'],
    [ids.davesMfa, dave, 'mfa', mfa({ date: '2023-01-01 00:00:00.000000', timezone: 'UTC' })],
  ] as const)
    await db.insert('account_settings', {
      id,
      user_id: user.id,
      property,
      property_id: randomUUID(),
      value,
      ...stamps,
    })

  // UI rights: users may not use tags; the custom auditor role may not export.
  const action = async (name: string) => {
    const id = randomUUID()
    await db.insert('ui_actions', { id, name, ...stamps })
    return id
  }
  const tagsUse = await action('Tags.use')
  const exportAction = await action('Resources.export')
  await db.insert('rbacs', {
    id: randomUUID(),
    role_id: org.roles.user,
    control_function: 'Deny',
    foreign_model: 'UiAction',
    foreign_id: tagsUse,
    ...stamps,
  })
  await db.insert('rbacs', {
    id: ids.exportRight,
    role_id: org.roles.auditor,
    control_function: 'Deny',
    foreign_model: 'UiAction',
    foreign_id: exportAction,
    ...stamps,
  })
  return { ...org, imagesDir, extra: ids }
}

test('comments, tags, pictures, settings, TOTP enrolments and UI rights move with the organisation', async (t) => {
  const org = await buildLivedInOrganisation(t)
  const target = await migratedTarget(t)
  const lines: string[] = []
  const report = await migrateFromPassbolt({
    from: org.db.url,
    gpgDir: org.gpgDir,
    imagesDir: org.imagesDir,
    orm: target.orm,
    serverKey: target.serverKey,
    progress: (line) => lines.push(line),
  })
  const reasons = new Map(report.skipped.map((row) => [row.id, row.reason]))
  t.regex(reasons.get(org.extra.encrypted) ?? '', /no clear text content/)
  t.regex(reasons.get(org.extra.davesLink) ?? '', /is deleted/)
  t.regex(reasons.get(org.extra.scim) ?? '', /^scim: Keyward has no scim setting/)
  t.regex(reasons.get(org.extra.davesMfa) ?? '', /is deleted/)
  t.is(report.counts.comments.target, 2)
  t.is(report.counts.resources_tags.target, 3)
  t.regex(reasons.get(org.extra.davesTag) ?? '', /no migrated password is tagged with it/)
  t.is(report.counts.avatars.target, 2)
  t.is(report.counts.account_settings.target, 3)
  t.deepEqual(report.warnings, [
    'Duo was an MFA provider in passbolt; Keyward does not offer it: users enrol TOTP or Yubikey',
  ])
  // Progress: every table read and written, with its rows and the time taken.
  t.truthy(lines.find((line) => /^read comments: 3 rows \(\d+\.\d s, /.test(line)))
  t.truthy(
    lines.find((line) => /^wrote avatars: 2 rows \(\d+\.\d s, \d+\.\d s in all\)$/.test(line)),
  )
  t.regex(formatReport(report), /comments\s+3\s+2/)

  const { api, signIn } = await startMigratedApi(t, target)

  // Bob enrolled TOTP in passbolt: Keyward asks for it, and his authenticator's code opens.
  const bob = await signIn(org.people.bob)
  const blocked = await bob.fetch('/resources.json', { redirect: 'manual' })
  t.not(blocked.status, 200, 'the TOTP enrolment moved, so MFA is required')
  const verified = await bob.json('/mfa/verify/totp.json', 'POST', {
    totp: await generate({ secret: TOTP_SECRET }),
  })
  t.is(verified.status, 200, JSON.stringify(verified.json?.header))
  const comments = await bob.fetch(`/comments/resource/${org.ids.shared}.json`)
  t.is(comments.status, 200)
  t.deepEqual(
    comments.json.body
      .flatMap((c: { content: string; children?: { content: string }[] }) => [
        c.content,
        ...(c.children ?? []).map((child) => child.content),
      ])
      .sort(),
    ['Second, by the printer.', 'Which floor is this router on?'],
  )
  const tags = await bob.fetch('/tags.json')
  t.deepEqual(tags.json.body.map((tag: { slug: string }) => tag.slug).sort(), ['#office', 'router'])
  const bobsRouter = tags.json.body.find((tag: { slug: string }) => tag.slug === 'router')
  const account = await bob.fetch('/account/settings.json')
  t.deepEqual(
    account.json.body.map((s: { property: string; value: unknown }) => [s.property, s.value]),
    [['theme', 'midgar']],
  )
  const rights = await bob.fetch('/rbacs/me.json?contain[ui_action]=1')
  const tagsRight = rights.json.body.find(
    (rbac: { ui_action?: { name: string } }) => rbac.ui_action?.name === 'Tags.use',
  )
  t.is(tagsRight?.control_function, 'Deny')
  const me = await bob.fetch('/users/me.json')
  const small = await fetch(
    new URL(new URL(me.json.body.profile.avatar.url.small).pathname, api.url),
  )
  t.is(small.status, 200)
  const meta = await sharp(Buffer.from(await small.arrayBuffer())).metadata()
  t.deepEqual([meta.format, meta.width, meta.height], ['jpeg', 80, 80], 'from the cache folder')

  // Ada, administrator: the SMTP password decrypted from passbolt's store, the policies, locale.
  const ada = await signIn(org.people.ada)
  const smtp = await ada.fetch('/smtp/settings.json')
  t.is(smtp.status, 200)
  t.like(smtp.json.body, {
    source: 'db',
    host: 'smtp.example.com',
    port: 587,
    tls: true,
    username: 'mailer',
    password: SMTP_PASSWORD,
  })
  const policies = await ada.fetch('/password-policies/settings.json')
  t.is(policies.json?.body?.default_generator, 'passphrase', policies.text.slice(0, 600))
  t.is(policies.json.body.passphrase_generator_settings.words, 11)
  const settings = await new TestClient(api.url).fetch('/settings.json')
  t.is(settings.json.body.app.locale, 'fr-FR')
  const mfa = await ada.fetch('/mfa/settings.json')
  t.deepEqual(mfa.json.body.providers, ['totp'])
  const adaMe = await ada.fetch('/users/me.json')
  const medium = await fetch(
    new URL(new URL(adaMe.json.body.profile.avatar.url.medium).pathname, api.url),
  )
  const adaTags = (await ada.fetch('/tags.json')).json.body as { id: string; slug: string }[]
  const adasRouter = adaTags.find((tag) => tag.slug === 'router')
  t.truthy(adasRouter)
  t.not(adasRouter?.id, bobsRouter.id, 'a personal tag of each user')
  const adaPicture = await sharp(Buffer.from(await medium.arrayBuffer())).metadata()
  t.deepEqual([adaPicture.width, adaPicture.height], [200, 200], 'from the database')
  const auditorRights = await ada.fetch('/rbacs.json?contain[ui_action]=1')
  t.truthy(
    auditorRights.json.body.find(
      (rbac: { id: string; role_id: string; control_function: string }) =>
        rbac.id === org.extra.exportRight &&
        rbac.role_id === org.roles.auditor &&
        rbac.control_function === 'Deny',
    ),
    'the custom role keeps its rights',
  )
})

test('settings, pictures and rights passbolt holds broken are reported with the reason, not imported', async (t) => {
  const org = await buildOrganisation(t)
  const { db } = org
  const ids = Object.fromEntries(
    ['smtp', 'mfa', 'policies', 'locale', 'picture', 'right', 'theme'].map((k) => [
      k,
      randomUUID(),
    ]),
  )
  for (const [id, property, value] of [
    [ids.smtp, 'smtp', '-----BEGIN PGP MESSAGE-----\n\nnot a message\n-----END PGP MESSAGE-----'],
    [ids.mfa, 'mfa', '{"providers": ["yubikey"]'],
    [
      ids.policies,
      'passwordPolicies',
      '{"default_generator": "dice", "external_dictionary_check": 1}',
    ],
    [ids.locale, 'locale', 'xx-XX'],
  ])
    await insertOrganizationSetting(db, org.people.ada.id, { id, property, value })
  await db.insert('account_settings', {
    id: ids.theme,
    user_id: org.people.bob.id,
    property: 'timezone',
    property_id: randomUUID(),
    value: 'Europe/Paris',
    ...stamps,
  })
  const [[profile]] = (await db.run('SELECT id FROM profiles WHERE user_id = ?', [
    org.people.ada.id,
  ])) as [{ id: string }[]]
  await db.insert('avatars', {
    id: ids.picture,
    profile_id: profile.id,
    data: Buffer.from('<?php system($_GET["c"]); ?>'),
    ...stamps,
  })
  const action = randomUUID()
  await db.insert('ui_actions', { id: action, name: 'Secrets.copy', ...stamps })
  await db.insert('rbacs', {
    id: ids.right,
    role_id: org.roles.user,
    control_function: 'AllowIfGroupManagerInOneGroup',
    foreign_model: 'UiAction',
    foreign_id: action,
    ...stamps,
  })
  const target = await migratedTarget(t)
  const report = await migrateFromPassbolt({
    from: org.db.url,
    gpgDir: org.gpgDir,
    orm: target.orm,
    serverKey: target.serverKey,
    dryRun: true,
  })
  const reasons = new Map(report.skipped.map((row) => [row.id, row.reason]))
  t.regex(reasons.get(ids.smtp) ?? '', /^smtp: it cannot be decrypted with the server key/)
  t.is(reasons.get(ids.mfa), 'mfa: its value is not a JSON object')
  t.is(
    reasons.get(ids.policies),
    'passwordPolicies: its value is not valid here: default_generator, external_dictionary_check, password_generator_settings, passphrase_generator_settings',
  )
  t.is(reasons.get(ids.locale), 'locale: locale xx-XX is not one the clients ship')
  t.is(reasons.get(ids.theme), 'timezone: Keyward has no timezone account setting')
  t.is(reasons.get(ids.picture), 'its picture is not a JPEG, PNG or WebP image Keyward reads')
  t.is(reasons.get(ids.right), 'AllowIfGroupManagerInOneGroup is not a rule Secrets.copy accepts')
  t.is(report.counts.organization_settings.planned, 0)
  t.is(report.counts.avatars.planned, 0)
})
