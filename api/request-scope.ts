// What the code running for one HTTP request may need without being handed it: the request id
// (every log line written while the request runs carries it) and the mails it queued (which it
// gives their first attempt once its transaction is over).
import { AsyncLocalStorage } from 'node:async_hooks'

export interface RequestScope {
  requestId: string
  /** Ids of the mails queued while serving the request. */
  mails: string[]
}

export const requestScope = new AsyncLocalStorage<RequestScope>()

/**
 * Set while a process does work of its own (the mail queue, periodic jobs), so what counts a
 * request's statements leaves it out.
 */
export const backgroundWork = new AsyncLocalStorage<string>()
