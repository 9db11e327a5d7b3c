// One V8-serialised file of the build cache, kept only when it was written by this cache format
// for this pipeline; anything else (missing, unreadable, stale) starts empty.
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs'
import { dirname } from 'node:path'
import { deserialize, serialize } from 'node:v8'
import { threadId } from 'node:worker_threads'
import { FORMAT } from './code-keys.ts'

export interface Stamped {
  format: number
  pipeline: string
}

export class CacheFile<T extends Stamped> {
  data: T
  changed = false

  constructor(
    private readonly file: string,
    pipeline: string,
    empty: (stamp: Stamped) => T,
  ) {
    let data: T | undefined
    try {
      if (existsSync(file)) data = deserialize(readFileSync(file)) as T
    } catch {
      data = undefined // an unreadable cache is a cold build
    }
    this.data =
      data?.format === FORMAT && data.pipeline === pipeline
        ? data
        : empty({ format: FORMAT, pipeline })
  }

  save(): void {
    if (!this.changed) return
    mkdirSync(dirname(this.file), { recursive: true })
    writeAtomically(this.file, serialize(this.data))
    this.changed = false
  }
}

/** Written aside and renamed, so a build stopped half-way never leaves half a file. */
export const writeAtomically = (file: string, content: string | Uint8Array): void => {
  const temporary = `${file}.${process.pid}.${threadId}.tmp`
  writeFileSync(temporary, content)
  renameSync(temporary, file)
}
