// Changes committed to watched tables, announced by triggers on the `keyward_changed` channel
// and heard by every API process on one listening connection. The payload is `<table>:<id>`:
// the id names the changed row, or, for the tables behind the resources lists, a user whose
// lists may differ; an empty id names nothing in particular. Caches of rows that every request
// needs (the caller's account, organisation settings) drop an entry the moment its row
// changes. While the connection is down, `live` is false and the caches keep nothing, so every
// request reads the database.
import pg from 'pg'
import type { Logger } from 'pino'
import { CoalescedRun } from '../coalesced-run.ts'

export const CHANGE_CHANNEL = 'keyward_changed'
/** The listening connection's `application_name`, which names it in `pg_stat_activity`. */
export const CHANGE_FEED_APPLICATION = 'keyward change feed'
const RECONNECT_MS = 1_000
/** How long `caughtUp` waits for its own notification before assuming the worst. */
const CATCH_UP_MS = 2_000

export type ChangeListener = (id: string) => void

export class ChangeFeed {
  private readonly listeners = new Map<string, Set<ChangeListener>>()
  private readonly writeListeners = new Set<() => void>()
  /**
   * A channel only this process listens to, for `caughtUp`'s own notifications: PostgreSQL
   * delivers notifications in the order their transactions committed, so once one sent here
   * comes back, every change committed before it was sent has been heard.
   */
  private readonly ownChannel =
    `keyward_caught_up_${process.pid}_${Math.random().toString(36).slice(2)}`
  private marks = 0
  private readonly awaitingMarks = new Map<number, () => void>()
  private readonly catchUps = new CoalescedRun(() => this.catchUp())
  private client: pg.Client | undefined
  private retry: NodeJS.Timeout | undefined
  private stopped = false
  /** Bumped by every change and every loss of the connection. */
  generation = 0
  live = false

  constructor(
    private readonly databaseUrl: string,
    private readonly logger: Logger,
  ) {}

  /** Calls `listener` with the id each change to `table` names; `''` means "assume all". */
  on(table: string, listener: ChangeListener): void {
    const set = this.listeners.get(table) ?? new Set()
    set.add(listener)
    this.listeners.set(table, set)
  }

  /** Calls `listener` whenever this process has just changed rows (`wroteHere`). */
  onWriteHere(listener: () => void): void {
    this.writeListeners.add(listener)
  }

  /**
   * This process committed a change. Its notification reaches this process a moment after the
   * commit, possibly after the client's next request: caches that must show a client its own
   * change at once drop what they keep now.
   */
  wroteHere(): void {
    this.generation++
    for (const listener of this.writeListeners) listener()
  }

  /**
   * Resolves once every change committed before the call has been heard, so that caches show a
   * client its own change in its next request without dropping what other changes left
   * standing. When the feed is down or does not answer in time, this process's caches drop
   * everything instead (`wroteHere`). Calls made while one is on its way share the next one.
   */
  caughtUp(): Promise<void> {
    // The one on its way may have been sent before this caller's change committed.
    return this.catchUps.request()
  }

  private async catchUp(): Promise<void> {
    const client = this.client
    if (!this.live || !client) return this.wroteHere()
    const mark = ++this.marks
    let timer: NodeJS.Timeout | undefined
    const heard = new Promise<boolean>((resolve) => {
      this.awaitingMarks.set(mark, () => resolve(true))
      timer = setTimeout(() => resolve(false), CATCH_UP_MS)
    })
    // A failed or stalled connection means the worst is assumed here; a failed one is also the
    // feed's loss, which `lost` handles.
    const sent = client.query('select pg_notify($1, $2)', [this.ownChannel, String(mark)]).then(
      () => heard,
      () => false,
    )
    try {
      if (await Promise.race([sent, heard])) return
    } finally {
      clearTimeout(timer)
      this.awaitingMarks.delete(mark)
    }
    this.wroteHere()
  }

  private heardMark(payload: string | undefined) {
    const mark = Number(payload)
    // Marks come back in the order they were sent: one heard means every earlier one was.
    for (const [waiting, resolve] of this.awaitingMarks)
      if (waiting <= mark) {
        this.awaitingMarks.delete(waiting)
        resolve()
      }
  }

  private emit(table: string, id: string) {
    this.generation++
    for (const listener of this.listeners.get(table) ?? []) listener(id)
  }

  async start(): Promise<void> {
    const client = new pg.Client({
      connectionString: this.databaseUrl,
      application_name: CHANGE_FEED_APPLICATION,
    })
    this.client = client
    client.on('notification', (message) => {
      if (message.channel === this.ownChannel) return this.heardMark(message.payload)
      const [table, id = ''] = (message.payload ?? '').split(':')
      this.emit(table, id)
    })
    client.on('error', () => this.lost())
    client.on('end', () => this.lost())
    try {
      await client.connect()
      await client.query(`listen ${CHANGE_CHANNEL}`)
      await client.query(`listen ${this.ownChannel}`)
      this.live = true
    } catch {
      this.lost()
    }
  }

  private lost() {
    if (this.live) this.logger.warn('change feed lost; caches are off until it is back')
    this.live = false
    for (const table of this.listeners.keys()) this.emit(table, '')
    this.client?.removeAllListeners()
    this.client?.end().catch(() => {})
    this.client = undefined
    if (!this.stopped && !this.retry)
      this.retry = setTimeout(() => {
        this.retry = undefined
        void this.start()
      }, RECONNECT_MS)
  }

  async stop(): Promise<void> {
    this.stopped = true
    clearTimeout(this.retry)
    this.live = false
    const client = this.client
    this.client = undefined
    client?.removeAllListeners()
    await client?.end().catch(() => {})
  }
}

/**
 * A map kept only while the feed is live: an entry read from the database is stored only if no
 * change was heard while it was being read. Bounded, so it cannot grow without end.
 */
export class FeedCache<V> {
  private readonly entries = new Map<string, V>()

  /**
   * `keyedBy: 'row'`: entries are keyed by the row id and a change drops that one; `'table'`:
   * any change to the table drops every entry.
   */
  constructor(
    private readonly feed: ChangeFeed,
    table: string,
    keyedBy: 'row' | 'table',
    private readonly maxEntries = 50_000,
  ) {
    feed.on(table, (id) =>
      keyedBy === 'row' && id ? this.entries.delete(id) : this.entries.clear(),
    )
  }

  async get(key: string, read: () => Promise<V>): Promise<V> {
    if (this.feed.live && this.entries.has(key)) return this.entries.get(key) as V
    const generation = this.feed.generation
    const value = await read()
    if (this.feed.live && generation === this.feed.generation) {
      if (this.entries.size >= this.maxEntries) this.entries.clear()
      this.entries.set(key, value)
    }
    return value
  }

  /** Drops an entry this process knows it just changed, before the change is announced. */
  forget(key: string): void {
    this.feed.generation++
    this.entries.delete(key)
  }
}
