// Avatars: uploaded as the extension does (multipart `profile[avatar][file]`), resized once to
// 200×200 and 80×80 JPEGs, served publicly with a long cache; bad files, oversized files and
// decompression bombs are 400s that store nothing; users without one get the default image.
import { deflateSync } from 'node:zlib'
import test, { type ExecutionContext } from 'ava'
import sharp from 'sharp'
import { startTestApi } from '../helpers/api.ts'
import { clientValidation } from '../helpers/client-entities.ts'
import { sqlOf, team } from '../helpers/vault.ts'

const setup = async (t: ExecutionContext, env: Record<string, string> = {}) => {
  const api = await startTestApi(t, { env })
  const [ada] = await team(api, ['ada'])
  const upload = (data: Buffer, type = 'image/png', name = 'avatar.png') => {
    const form = new FormData()
    form.append('profile[avatar][file]', new Blob([new Uint8Array(data)], { type }), name)
    return ada.client.fetch(`/users/${ada.id}.json`, { method: 'POST', body: form })
  }
  return { api, ada, upload, sql: sqlOf(api) }
}

const crc32 = (data: Buffer) => {
  let crc = ~0
  for (const byte of data) {
    crc ^= byte
    for (let k = 0; k < 8; k++) crc = (crc >>> 1) ^ (0xedb88320 & -(crc & 1))
  }
  return ~crc >>> 0
}
const chunk = (type: string, data: Buffer) => {
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data])
  const length = Buffer.alloc(4)
  length.writeUInt32BE(data.length)
  const crc = Buffer.alloc(4)
  crc.writeUInt32BE(crc32(body))
  return Buffer.concat([length, body, crc])
}
/** A tiny PNG whose header announces huge dimensions: a decompression bomb's shape. */
const pngClaiming = (width: number, height: number) => {
  const header = Buffer.alloc(13)
  header.writeUInt32BE(width, 0)
  header.writeUInt32BE(height, 4)
  header.set([8, 0, 0, 0, 0], 8)
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(Buffer.alloc(1024))),
    chunk('IEND', Buffer.alloc(0)),
  ])
}

const png = (width: number, height: number) =>
  sharp({ create: { width, height, channels: 3, background: '#3366cc' } })
    .png()
    .toBuffer()

test('an uploaded PNG becomes the profile avatar, served in both sizes, publicly, with a long cache', async (t) => {
  const { api, ada, upload } = await setup(t)
  const answer = await upload(await png(640, 480))
  t.is(answer.status, 200, answer.text)
  const avatar = answer.json.body.profile.avatar
  t.truthy(avatar.id)
  t.is(avatar.url.medium, `${api.app.config.appUrl}avatars/view/${avatar.id}/medium.jpg`)
  t.deepEqual(await clientValidation('AvatarEntity', avatar), {})
  t.deepEqual(await clientValidation('UserEntity', answer.json.body), {})
  for (const [size, edge] of [
    ['medium', 200],
    ['small', 80],
  ] as const) {
    const image = await fetch(`${api.url}/avatars/view/${avatar.id}/${size}.jpg`)
    t.is(image.status, 200)
    t.is(image.headers.get('content-type'), 'image/jpeg')
    t.regex(image.headers.get('cache-control') ?? '', /max-age=31536000/)
    const meta = await sharp(Buffer.from(await image.arrayBuffer())).metadata()
    t.like(meta, { format: 'jpeg', width: edge, height: edge })
  }
  const listed = (await ada.client.fetch('/users.json')).json.body[0]
  t.is(listed.profile.avatar.id, avatar.id, 'the directory answers the avatar')
  const replaced = await upload(await png(100, 100))
  t.not(replaced.json.body.profile.avatar.id, avatar.id, 'a new upload gets a new id')
  t.is((await fetch(`${api.url}/avatars/view/${avatar.id}/medium.jpg`)).status, 404)
  t.is((await fetch(`${api.url}/avatars/view/${avatar.id}/large.jpg`)).status, 404)
})

test('the default avatar is a real PNG at the URLs the clients use', async (t) => {
  const { api } = await setup(t)
  for (const [path, edge] of [
    ['/img/avatar/user.png', 80],
    ['/img/avatar/user_medium.png', 200],
  ] as const) {
    const image = await fetch(`${api.url}${path}`)
    t.is(image.status, 200)
    t.is(image.headers.get('content-type'), 'image/png')
    t.like(await sharp(Buffer.from(await image.arrayBuffer())).metadata(), {
      format: 'png',
      width: edge,
    })
  }
})

test('not an image, a GIF, an oversized file, a decompression bomb and a missing file are 400s that store nothing', async (t) => {
  const { upload, sql, ada } = await setup(t, { KEYWARD_AVATAR_MAX_SIZE: '200kb' })
  const text = await upload(Buffer.from('%PDF-1.4 not an image'), 'application/pdf', 'a.pdf')
  t.is(text.status, 400)
  t.is(text.json.header.message, 'Could not validate user data.')
  t.truthy(text.json.body.profile.avatar.file.validMimeType)
  const gif = await upload(
    await sharp({ create: { width: 10, height: 10, channels: 3, background: '#000' } })
      .gif()
      .toBuffer(),
    'image/png',
  )
  t.truthy(
    gif.json.body.profile.avatar.file.validMimeType,
    'the bytes decide, not the claimed type',
  )
  const big = await upload(Buffer.alloc(300 * 1024, 1))
  t.is(big.status, 400)
  t.truthy(big.json.body.profile.avatar.file.validUploadedFile)
  const bomb = pngClaiming(100_000, 100_000)
  t.true(bomb.length < 1024)
  const bombed = await upload(bomb)
  t.is(bombed.status, 400)
  // Refused from its header, before any pixel is decoded (sharp may already refuse to read it).
  const rules = Object.keys(bombed.json.body.profile.avatar.file)
  t.true(rules.includes('validImageDimensions') || rules.includes('validMimeType'), rules.join())
  const missing = await ada.client.json(`/users/${ada.id}.json`, 'PUT', { profile: { avatar: {} } })
  t.is(missing.status, 400)
  t.truthy(missing.json.body.profile.avatar.file._required)
  t.deepEqual(await sql('select 1 from avatars'), [])
})

test('a file part under a hostile or clashing name is a 400, and nothing is polluted', async (t) => {
  const { ada } = await setup(t)
  for (const name of ['__proto__[polluted]', 'profile[first_name][x]', 'a[b][c][d][e][f]']) {
    const form = new FormData()
    if (name.startsWith('profile')) form.append('profile[first_name]', 'Ada')
    form.append(name, new Blob([new Uint8Array(await png(10, 10))], { type: 'image/png' }), 'a.png')
    const answer = await ada.client.fetch(`/users/${ada.id}.json`, { method: 'POST', body: form })
    t.is(answer.status, 400, name)
    t.is(answer.json.header.message, 'The multipart request body is malformed.')
  }
  t.is(({} as Record<string, unknown>).polluted, undefined)
})
