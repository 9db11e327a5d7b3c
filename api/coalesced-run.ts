// A task that callers ask for when they need a run that starts after their call (a look at a
// queue, a round trip that proves earlier changes were heard). A run under way may have started
// before a caller's call, so it cannot serve them; callers who come while it runs share one
// more run, started when it ends, rather than starting one each.

export class CoalescedRun {
  private running: Promise<void> | undefined
  private queued: Promise<void> | undefined

  constructor(private readonly task: () => Promise<void>) {}

  /** Resolves when a run that began after this call is over. */
  request(): Promise<void> {
    if (!this.running) {
      this.running = this.task().finally(() => {
        this.running = undefined
      })
      return this.running
    }
    this.queued ??= this.running.then(() => {
      this.queued = undefined
      return this.request()
    })
    return this.queued
  }

  /** Resolves when the run under way, and the one queued after it, are over. */
  settled(): Promise<void> {
    return this.queued ?? this.running ?? Promise.resolve()
  }
}
