// The structural OpenPGP reader against messages and keys that openpgp.js made: the key ids
// and recipients it finds are openpgp.js's own, and anything that is not an encrypted message
// for public keys is refused.
import test from 'ava'
import * as openpgp from 'openpgp'
import { dearmor, messageRecipients, PacketError, publicKeyIds } from '../../api/openpgp-packets.ts'
import { decompressionBomb } from '../helpers/bomb.ts'

const keyPair = (type: 'ecc' | 'rsa') =>
  openpgp.generateKey({
    ...(type === 'ecc' ? { type, curve: 'curve25519Legacy' as const } : { type, rsaBits: 3072 }),
    userIDs: [{ email: `${type}@keyward.test` }],
    format: 'object',
  })

test('key ids and recipients are the ones openpgp.js reports, for ECC and RSA keys', async (t) => {
  for (const type of ['ecc', 'rsa'] as const) {
    const { publicKey } = await keyPair(type)
    t.deepEqual(
      publicKeyIds(publicKey.armor()),
      publicKey.getKeyIDs().map((id) => id.toHex()),
      type,
    )
    const other = (await keyPair('ecc')).publicKey
    const message = await openpgp.encrypt({
      message: await openpgp.createMessage({ text: 'secret' }),
      encryptionKeys: [publicKey, other],
    })
    const encryptionKey = await publicKey.getEncryptionKey()
    const recipients = messageRecipients(message as string)
    t.is(recipients.length, 2)
    t.true(recipients.includes(encryptionKey.getKeyID().toHex()), type)
  }
})

test('what is not a message encrypted to public keys is refused', async (t) => {
  const { publicKey, privateKey } = await keyPair('ecc')
  const refuse = (text: string) =>
    t.throws(() => messageRecipients(text), { instanceOf: PacketError })
  const signedOnly = await openpgp.sign({
    message: await openpgp.createMessage({ text: 'clear' }),
    signingKeys: privateKey,
  })
  refuse(signedOnly as string)
  const symmetric = await openpgp.encrypt({
    message: await openpgp.createMessage({ text: 'x' }),
    passwords: ['pw'],
  })
  refuse(symmetric as string)
  const good = (await openpgp.encrypt({
    message: await openpgp.createMessage({ text: 'x' }),
    encryptionKeys: publicKey,
  })) as string
  refuse(good.replace(/\n[A-Za-z0-9+/]{10}/, '\n!!!!!!!!!!'))
  refuse(good.replace('-----END PGP MESSAGE-----', ''))
  const lines = good.trim().split('\n')
  const truncated = [...lines.slice(0, 3), ...lines.slice(-2)].join('\n')
  refuse(truncated)
  refuse(publicKey.armor())
  t.throws(
    () => dearmor(good.replace(/=[A-Za-z0-9+/]{4}\n-----END/, '=AAAA\n-----END'), 'MESSAGE'),
    {
      message: 'the armor checksum does not match',
    },
  )
  t.notThrows(() => messageRecipients(good))
})

test('a decompression bomb is read without being expanded', async (t) => {
  const { publicKey } = await keyPair('ecc')
  const bomb = await decompressionBomb(publicKey)
  // CPU time, not wall time, so a loaded machine cannot fail it: expanding the gibibyte takes
  // seconds of CPU, reading the packets' headers about a millisecond.
  const started = process.cpuUsage()
  t.is(messageRecipients(bomb).length, 1)
  const used = process.cpuUsage(started)
  t.true((used.user + used.system) / 1000 < 200)
})
