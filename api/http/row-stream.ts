// Writes a list read from the database a batch at a time as the passbolt envelope, as fast as
// the client takes it and no faster, and lets go of the database when the answer ends, fails,
// or the client leaves.
import { Readable } from 'node:stream'
import type { JsonRowBatches } from '../envelope.ts'

/**
 * Bytes read ahead of what the client has taken. PostgreSQL is usually faster than the
 * network: reading ahead lets a list end, and its connection go back to the pool, before a
 * client on a slow link has it all, while the memory one answer holds stays bounded.
 */
export const READ_AHEAD_BYTES = 8 * 2 ** 20

/**
 * Longest a client may take no data before the last batch was read. A client that stops
 * reading (a stalled network, a hostile one) would otherwise hold one of a few pool connections
 * (and up to `READ_AHEAD_BYTES`) for as long as its socket lives, and a handful of them would
 * stop the server answering anyone.
 */
export const STALLED_CLIENT_MS = 30_000

/** The answer was cut because the client took no data for `STALLED_CLIENT_MS`. */
export class StalledClient extends Error {
  override name = 'StalledClient'
  constructor() {
    super(`the client took no data for ${STALLED_CLIENT_MS} ms`)
  }
}

/** The answer was cut because reading the list failed (the cause says why). */
export class ListReadFailed extends Error {
  override name = 'ListReadFailed'
}

/**
 * The envelope `{"header":…,"body":[…]}` of a list read in batches, as a stream that reads
 * the next batch only when the client has taken (or nearly taken) what was read before.
 * Destroying it (the client left, the server closes the answer) closes the batches.
 */
export const rowStream = (header: unknown, batches: JsonRowBatches): Readable => {
  // The header goes out with the first batch: each read is answered by exactly one push, so
  // that the stream never asks for a batch while one is still being read.
  let opening: string | undefined = `{"header":${JSON.stringify(header)},"body":[`
  let first = true
  let stalled: NodeJS.Timeout | undefined
  const pushNext = async () => {
    try {
      const rows = await batches.next()
      if (stream.destroyed) return
      const head = opening ?? ''
      opening = undefined
      if (rows.length === 0) {
        stream.push(`${head}]}`)
        stream.push(null)
        return
      }
      const prefix = `${head}${first ? '' : ','}`
      if (Buffer.isBuffer(rows)) stream.push(Buffer.concat([Buffer.from(prefix), rows]))
      else {
        const chunk = Buffer.from(`${prefix}${rows.join(',')}`)
        // The rows' own bytes, without copying them.
        batches.sent?.(chunk.subarray(Buffer.byteLength(prefix)))
        stream.push(chunk)
      }
      first = false
      // Nothing more is asked of the database until the client takes data: if it does not,
      // the answer is cut and the connection goes back to the pool.
      stalled = setTimeout(() => stream.destroy(new StalledClient()), STALLED_CLIENT_MS)
      stalled.unref()
    } catch (error) {
      // Wrapped, so that a database connection reset is not taken for the client's socket.
      stream.destroy(new ListReadFailed('reading the list failed', { cause: error }))
    }
  }
  const stream: Readable = new Readable({
    highWaterMark: READ_AHEAD_BYTES,
    read() {
      clearTimeout(stalled)
      void pushNext()
    },
    destroy(error, done) {
      clearTimeout(stalled)
      batches.close().then(
        () => done(error),
        (closing: unknown) => done(error ?? (closing as Error)),
      )
    },
  })
  return stream
}
