// A fixed-window limiter of failed attempts on the routes that check credentials: per account,
// and per client address with a higher ceiling (an office behind one NAT shares an address).
// In-process memory: with several API processes each counts on its own.
import { HttpError } from './errors.ts'

export const TOO_MANY = 'Too many attempts. Please wait a minute and try again.'

const WINDOW_MS = 60_000
/** Bound on tracked keys, so a flood of distinct keys cannot grow memory without end. */
const MAX_KEYS = 100_000

export interface ThrottleKey {
  key: string
  limit: number
}

export class Throttle {
  private readonly windows = new Map<string, { start: number; count: number }>()

  private current(key: string, now: number) {
    const window = this.windows.get(key)
    return window && now - window.start < WINDOW_MS ? window : undefined
  }

  /** Throws 429 when any key has used up its failures in the current window. */
  check(keys: readonly ThrottleKey[], now = Date.now()): void {
    for (const { key, limit } of keys)
      if ((this.current(key, now)?.count ?? 0) >= limit)
        throw new HttpError(429, TOO_MANY, '', { 'Retry-After': '60' })
  }

  /** Counts one failed attempt for each key. */
  fail(keys: readonly ThrottleKey[], now = Date.now()): void {
    if (this.windows.size > MAX_KEYS) this.windows.clear()
    for (const { key } of keys) {
      let window = this.current(key, now)
      if (!window) {
        window = { start: now, count: 0 }
        this.windows.set(key, window)
      }
      window.count++
    }
  }
}
