// Changes committed to watched tables, announced by triggers on the `keyward_changed` channel
// (payload `<table>:<id>`) and heard by every API process on one listening connection. Caches of
// rows that every request needs (the caller's account, organisation settings) drop an entry
// the moment its row changes. While the connection is down, `live` is false and the caches keep
// nothing, so every request reads the database.
import pg from 'pg'
import type { Logger } from 'pino'

export const CHANGE_CHANNEL = 'keyward_changed'
const RECONNECT_MS = 1_000

export type ChangeListener = (id: string) => void

export class ChangeFeed {
  private readonly listeners = new Map<string, Set<ChangeListener>>()
  private readonly writeListeners = new Set<() => void>()
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

  /** Calls `listener` with the id of each changed row of `table`; `''` means "assume all". */
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

  private emit(table: string, id: string) {
    this.generation++
    for (const listener of this.listeners.get(table) ?? []) listener(id)
  }

  async start(): Promise<void> {
    const client = new pg.Client({ connectionString: this.databaseUrl })
    this.client = client
    client.on('notification', (message) => {
      const [table, id = ''] = (message.payload ?? '').split(':')
      this.emit(table, id)
    })
    client.on('error', () => this.lost())
    client.on('end', () => this.lost())
    try {
      await client.connect()
      await client.query(`listen ${CHANGE_CHANNEL}`)
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
