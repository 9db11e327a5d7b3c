// Fixed-window limits on the routes that check credentials or cost the server work for anyone
// who asks: per account, and per client address with a higher ceiling (an office behind one
// NAT shares an address). The counters live in PostgreSQL, so every server process on the
// database shares each limit; a hit is one statement. The counts are written outside any
// request transaction: a refused request rolling back must not take its count with it.
import { createHash } from 'node:crypto'
import type { MikroORM } from '@mikro-orm/postgresql'
import { purgeInBatches } from './db/purge.ts'
import { HttpError } from './errors.ts'

export const TOO_MANY = 'Too many attempts. Please wait a minute and try again.'

/** @default the one-minute window of failed sign-ins */
const DEFAULT_WINDOW_SECONDS = 60
/** A process purges after this many writes of its own (and whenever asked). */
const PURGE_EVERY = 500

export interface ThrottleKey {
  /** What is counted, e.g. `ip|203.0.113.7`; stored only as a digest. */
  key: string
  limit: number
  /** @default 60 */
  windowSeconds?: number
}

const digest = (key: string) => createHash('sha256').update(key).digest('hex')

const tooMany = (retryAfter: number) =>
  new HttpError(429, TOO_MANY, '', { 'Retry-After': String(Math.max(1, Math.ceil(retryAfter))) })

export class Throttle {
  private writes = 0

  constructor(private readonly orm: MikroORM) {}

  /** The pool's query builder: never a request's transaction. */
  private get knex() {
    return this.orm.em.getKnex()
  }

  /** Throws 429 when any key has used up its window. */
  async check(keys: readonly ThrottleKey[]): Promise<void> {
    if (keys.length === 0) return
    const limits = new Map(keys.map((key) => [digest(key.key), key.limit]))
    const rows: { key: string; hits: number; retry: number }[] = await this.knex('throttles')
      .select(
        'key',
        'hits',
        this.knex.raw('extract(epoch from window_ends - clock_timestamp()) as retry'),
      )
      .whereIn('key', [...limits.keys()])
      .where('window_ends', '>', this.knex.raw('clock_timestamp()'))
    for (const row of rows)
      if (row.hits >= (limits.get(row.key) ?? Number.POSITIVE_INFINITY))
        throw tooMany(Number(row.retry))
  }

  /**
   * Counts one attempt for each key in one statement (a row's window starts again once it has
   * ended); returns each key's count in its current window, in the order given.
   */
  async count(keys: readonly ThrottleKey[]): Promise<{ hits: number; retry: number }[]> {
    if (keys.length === 0) return []
    const knex = this.knex
    const rows = new Map<string, ThrottleKey>()
    for (const key of keys) rows.set(digest(key.key), key)
    const counted: { key: string; hits: number; retry: number }[] = await knex('throttles')
      .insert(
        [...rows].map(([key, { windowSeconds = DEFAULT_WINDOW_SECONDS }]) => ({
          key,
          hits: 1,
          window_ends: knex.raw(`clock_timestamp() + make_interval(secs => ?)`, [windowSeconds]),
        })),
      )
      .onConflict('key')
      .merge({
        hits: knex.raw(
          'case when throttles.window_ends <= clock_timestamp() then 1 else throttles.hits + 1 end',
        ),
        window_ends: knex.raw(
          'case when throttles.window_ends <= clock_timestamp() then excluded.window_ends else throttles.window_ends end',
        ),
      })
      .returning([
        'key',
        'hits',
        knex.raw('extract(epoch from window_ends - clock_timestamp()) as retry'),
      ])
    if (++this.writes % PURGE_EVERY === 0) await this.purge()
    const byKey = new Map(counted.map((row) => [row.key, row]))
    return keys.map((key) => {
      const row = byKey.get(digest(key.key))
      return { hits: row?.hits ?? 0, retry: Number(row?.retry ?? 0) }
    })
  }

  /** Counts a failed attempt for each key. */
  async fail(keys: readonly ThrottleKey[]): Promise<void> {
    await this.count(keys)
  }

  /**
   * Counts an attempt whatever its outcome, and throws 429 once any key is past its limit: for
   * requests that cost work or send mail even when they succeed.
   */
  async hit(keys: readonly ThrottleKey[]): Promise<void> {
    const counts = await this.count(keys)
    for (const [index, key] of keys.entries())
      if (counts[index].hits > key.limit) throw tooMany(counts[index].retry)
  }

  /** Deletes rows whose window has ended; safe from several processes at once. */
  purge(): Promise<number> {
    const knex = this.knex
    return purgeInBatches(knex, 'throttles', 'key', (query) =>
      query.where('window_ends', '<=', knex.raw('clock_timestamp()')),
    )
  }
}
