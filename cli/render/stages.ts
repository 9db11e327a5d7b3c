// Times the steps of a build on the monotonic clock CPU profiles use, so a profile's samples can
// be split by step (bench/profile-build.ts).

export interface StageTiming {
  name: string
  /** Microseconds on the monotonic clock (process.hrtime). */
  start: number
  end: number
}

const now = () => Number(process.hrtime.bigint() / 1000n)

export class Stages {
  readonly list: StageTiming[] = []

  /** Ends the running step, if any, and starts `name`. */
  start(name: string): void {
    this.end()
    this.list.push({ name, start: now(), end: 0 })
  }

  end(): void {
    const last = this.list.at(-1)
    if (last && !last.end) last.end = now()
  }
}
