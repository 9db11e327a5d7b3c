// Whole lists written by PostgreSQL (the resources list, the users directory), kept per caller
// and query until a table they read changes. Clients ask the same list again and again (the
// extension syncs its passwords each time it opens) while nothing changed, and a list of 10,000
// documents costs PostgreSQL about a hundred milliseconds to write each time.
//
// A list is kept only when it was read whole while the change feed was live and nothing it
// reads changed between the lookup and its last row. A change to a table drops the lists that
// read it. Some tables' changes name what they changed: `users` its row, the tables behind each
// user's resources list the users whose lists it may alter (`-` when none). A list may read
// only some names of such a table (its caller's), and a change naming none of them leaves it.
// A change made through this process is heard before its answer goes out
// (`ChangeFeed.caughtUp`); one made by another process when its notification arrives, moments
// after its commit, as with every cache fed by `ChangeFeed`.
import type { JsonRowBatches } from '../envelope.ts'
import type { ChangeFeed } from './change-feed.ts'

/** About what an entry costs besides its key and documents, in bytes. */
const ENTRY_OVERHEAD = 256

/**
 * What a list reads: whole tables, and, of tables whose changes name what they changed (a row,
 * or the users whose lists may differ), the names it depends on. A change that names nothing
 * in particular (`''`) drops every list reading its table.
 */
export interface ListReads {
  tables: readonly string[]
  rows?: Readonly<Record<string, readonly string[]>>
}

/**
 * A list as it was sent: its full count and its documents, in the batches they went in, as
 * bytes, so that sending it again neither joins nor encodes anything.
 */
interface KeptList {
  count: number
  batches: Buffer[]
  reads: ListReads
  /** Bytes of all its batches and its key: what it weighs against the cache's bound. */
  size: number
}

/** Collects a list as it is sent, to keep it once it was sent whole. */
export interface ListKeeper {
  /**
   * About how many bytes the whole list will be, known from its first batch: a list that
   * cannot be kept is not collected at all.
   */
  expect(bytes: number): void
  /** The documents of one batch, comma-separated, as sent. */
  add(batch: Buffer): void
  /** The list was sent to its end: keep it if nothing changed since the lookup. */
  finish(count: number): void
}

/** A list found in the cache, or what will keep it once it is read. */
export type ListLookup =
  | { kept: { count: number; documents: JsonRowBatches }; keeper?: undefined }
  | { kept?: undefined; keeper: ListKeeper }

/** A kept list's batches again, one a call. */
const replay = (kept: KeptList): JsonRowBatches => {
  let next = 0
  return {
    next: async () => kept.batches[next++] ?? [],
    close: async () => {},
  }
}

export class ListCache {
  private readonly entries = new Map<string, KeptList>()
  private size = 0
  /** Changes heard per table, and drops of everything: what a keeper checks before storing. */
  private readonly changes = new Map<string, number>()
  private cleared = 0

  /**
   * `tables`: every table the cached lists read, and what a list reads unless its lookup says
   * less. `maxSize`: bytes kept in all (0 keeps nothing); a list over an eighth of it is never
   * kept, so that one large answer (the permission tree of a whole vault, 40 MiB for 10,000
   * passwords) cannot push out all the others, nor hold the server's memory up while it is
   * sent: its documents are let go of once they pass that size.
   */
  constructor(
    private readonly feed: ChangeFeed,
    private readonly tables: readonly string[],
    private readonly maxSize: number,
  ) {
    for (const table of tables) feed.on(table, (id) => this.changed(table, id))
    feed.onWriteHere(() => this.clear())
  }

  /**
   * The list kept for `key`, or a keeper that stores it if it is sent whole in time. `reads`:
   * what the list reads, among the cache's own tables (all of them unless it says less); a
   * change to anything else leaves it kept.
   */
  lookup(key: string, reads: ListReads = { tables: this.tables }): ListLookup {
    const found = this.feed.live ? this.entries.get(key) : undefined
    if (found) {
      // Maps iterate in insertion order: a list read again goes last, and the least recently
      // read goes first when room is needed.
      this.entries.delete(key)
      this.entries.set(key, found)
      return { kept: { count: found.count, documents: replay(found) } }
    }
    return { keeper: this.keeper(key, reads) }
  }

  /**
   * A figure that moves whenever a list with `reads` must not be kept: any change to a table
   * it reads, even to another row, while the list is read.
   */
  private versionOf(reads: ListReads) {
    let version = this.cleared
    for (const table of [...reads.tables, ...Object.keys(reads.rows ?? {})])
      version += this.changes.get(table) ?? 0
    return version
  }

  private keeper(key: string, reads: ListReads): ListKeeper {
    const version = this.versionOf(reads)
    const limit = this.maxSize / 8
    const batches: Buffer[] = []
    // An empty list still weighs its key and its entry, so that a flood of distinct requests
    // answered by empty lists cannot grow the cache without end.
    let size = key.length + ENTRY_OVERHEAD
    let tooLarge = this.maxSize === 0
    return {
      expect: (bytes) => {
        if (size + bytes > limit) tooLarge = true
      },
      add: (batch) => {
        if (tooLarge) return
        size += batch.length
        if (size > limit) {
          tooLarge = true
          batches.length = 0
        } else batches.push(batch)
      },
      finish: (count) => {
        if (tooLarge || !this.feed.live || version !== this.versionOf(reads)) return
        // Once: a keeper stores one list.
        tooLarge = true
        this.store(key, { count, batches, reads, size })
      },
    }
  }

  private store(key: string, list: KeptList) {
    const replaced = this.entries.get(key)
    if (replaced) {
      this.entries.delete(key)
      this.size -= replaced.size
    }
    for (const [oldest, entry] of this.entries) {
      if (this.size + list.size <= this.maxSize) break
      this.entries.delete(oldest)
      this.size -= entry.size
    }
    this.entries.set(key, list)
    this.size += list.size
  }

  /** `id`: the name the change gives (a row, a user, `-` for none), or `''` when it gives none. */
  private changed(table: string, id: string) {
    this.changes.set(table, (this.changes.get(table) ?? 0) + 1)
    for (const [key, { reads, size }] of this.entries) {
      const rows = reads.rows?.[table]
      if (reads.tables.includes(table) || (rows && (id === '' || rows.includes(id)))) {
        this.entries.delete(key)
        this.size -= size
      }
    }
  }

  private clear() {
    this.cleared++
    this.entries.clear()
    this.size = 0
  }

  /** Lists kept now, and the bytes they hold. */
  stats(): { lists: number; size: number } {
    return { lists: this.entries.size, size: this.size }
  }
}
