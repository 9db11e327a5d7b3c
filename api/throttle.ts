// A fixed-window rate limiter for the routes that check credentials: per client address and
// per account. In-process memory: with several API processes each counts on its own.
import { HttpError } from './errors.ts'

export const TOO_MANY = 'Too many attempts. Please wait a minute and try again.'

const WINDOW_MS = 60_000
/** Bound on tracked keys, so a flood of distinct keys cannot grow memory without end. */
const MAX_KEYS = 100_000

export class Throttle {
  private readonly windows = new Map<string, { start: number; count: number }>()

  constructor(private readonly limit: number) {}

  /** Counts one attempt for each key; throws 429 when any is over the limit. */
  hit(keys: string[], now = Date.now()): void {
    if (this.windows.size > MAX_KEYS) this.windows.clear()
    let exceeded = false
    for (const key of keys) {
      let window = this.windows.get(key)
      if (!window || now - window.start >= WINDOW_MS) {
        window = { start: now, count: 0 }
        this.windows.set(key, window)
      }
      window.count++
      if (window.count > this.limit) exceeded = true
    }
    if (exceeded) throw new HttpError(429, TOO_MANY, '', { 'Retry-After': '60' })
  }
}
