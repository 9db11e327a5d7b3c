// Building blocks of the response schemas every plugin declares: what the server answers, not
// what it accepts, so ids and timestamps are read as stored.
import { z } from 'zod'

/** Ids as stored: an answer is not the place to refuse an id another client wrote. */
export const storedId = z.string().meta({ format: 'uuid' })

/** A timestamp as passbolt writes it (`2026-01-02T03:04:05+00:00`), or null. */
export const stamp = z.string().nullable()

/** The empty body of an answer that carries only its message. */
export const noBody = z.null()
