// The lookups cached renderings made (a linked doc's route, a static file, an image's hash),
// each kept once: docs make the same ones (their links to the same pages), and thousands of
// small arrays cost far more to read and collect than indexes into one table.
import type { Dependency } from '../render/doc-deps.ts'

export class LookupTable {
  /** A lookup's index, by its parts joined. */
  private ids: Map<string, number> | undefined

  constructor(public lookups: Dependency[]) {}

  idsOf(deps: Dependency[]): Uint32Array {
    return Uint32Array.from(deps, (dep) => this.idOf(dep))
  }

  depsOf(ids: Uint32Array): Dependency[] {
    return Array.from(ids, (i) => this.lookups[i])
  }

  private idOf(dep: Dependency): number {
    this.ids ??= new Map(this.lookups.map((known, i) => [known.join('\0'), i]))
    const id = dep.join('\0')
    let index = this.ids.get(id)
    if (index === undefined) {
      index = this.lookups.push(dep) - 1
      this.ids.set(id, index)
    }
    return index
  }

  /** Keeps only the lookups `users` refer to, and renumbers their references. */
  compact(users: { deps: Uint32Array }[]): void {
    const kept: Dependency[] = []
    const moved = new Map<number, number>()
    for (const user of users)
      user.deps = user.deps.map((i) => {
        let index = moved.get(i)
        if (index === undefined) {
          index = kept.push(this.lookups[i]) - 1
          moved.set(i, index)
        }
        return index
      })
    this.lookups = kept
    this.ids = undefined
  }
}
