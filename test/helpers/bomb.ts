// A decompression bomb in OpenPGP form: about 2 KB armored, a message encrypted to a key whose
// compressed packet (bzip2) expands to a literal packet of 1 GiB of zeros. The compressed
// packet's content is a committed fixture (see test/fixtures/bomb/README.md).
import { readFileSync } from 'node:fs'
import * as openpgp from 'openpgp'

const FIXTURE = new URL('../fixtures/bomb/literal-1gib.bz2', import.meta.url)

/** What the fixture expands to, in bytes: the literal packet's header and body. */
export const BOMB_EXPANDED_BYTES = 12 + 1024 ** 3

export const decompressionBomb = async (encryptionKey: openpgp.Key): Promise<string> => {
  const packet = new openpgp.CompressedDataPacket()
  // Set as already compressed: writing the packet sends these bytes as they are.
  Object.assign(packet, {
    algorithm: openpgp.enums.compression.bzip2,
    compressed: readFileSync(FIXTURE),
  })
  const packets = new openpgp.PacketList()
  packets.push(packet)
  const message = new openpgp.Message(packets as never)
  return (await openpgp.encrypt({ message, encryptionKeys: encryptionKey })) as string
}
