// The dev server's search updates: after an edit, the edited pages' entries are replaced in the
// search worker once edits pause, in the background and off the edit-to-reload path.

import type { DocState, SiteDocs } from '../content/site-docs.ts'
import type { SearchJob } from './search-job.ts'

/** Edits closer together than this go to the search worker together. */
const PAUSE_MS = 200

export class SearchUpdates {
  private timer: NodeJS.Timeout | undefined
  private readonly pending = new Set<string>()

  constructor(private readonly job: SearchJob) {}

  /** Queues the pages of `states` (by file) for the next update. */
  schedule(site: SiteDocs, states: DocState[]): void {
    for (const state of states) this.pending.add(state.source.file)
    clearTimeout(this.timer)
    this.timer = setTimeout(() => this.flush(site), PAUSE_MS)
  }

  /** Drops what is queued (a full build indexes everything anew). */
  cancel(): void {
    clearTimeout(this.timer)
    this.pending.clear()
  }

  private flush(site: SiteDocs): void {
    const states = [...this.pending].flatMap((file) => site.docs.get(file) ?? [])
    this.pending.clear()
    if (!states.length) return
    const pages = site.searchablePages(states)
    const listed = new Set(pages.map((page) => page.route))
    const removed = states.map((s) => s.source.route).filter((route) => !listed.has(route))
    this.job.update(pages, removed).catch((error) => {
      console.error(`search index update failed: ${error.message}`)
    })
  }
}
