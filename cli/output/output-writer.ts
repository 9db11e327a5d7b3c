// Writes the output tree through the build cache: a file the last build wrote into the same
// folder from the same inputs (its key), and that is still there untouched (same size and
// modification time), is neither rendered nor written again; files the last build wrote that
// this one does not are removed. Without a usable record the folder is emptied first, as in a
// cold build.
import { mkdirSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'

export interface WrittenFile {
  key: string
  size: number
  mtimeMs: number
}

export interface OutputRecord {
  outDir: string
  /** Path below the output folder to what was written there. */
  files: Record<string, WrittenFile>
}

const statOf = (path: string) => {
  try {
    return statSync(path)
  } catch {
    return undefined
  }
}

export class OutputWriter {
  private readonly previous: Record<string, WrittenFile>
  private readonly next: Record<string, WrittenFile> = {}
  /** Files written by this build (skipped ones not counted). */
  written = 0
  /** Files of the last build removed by this one. */
  removed = 0

  constructor(
    readonly outDir: string,
    record: OutputRecord | undefined,
  ) {
    if (record?.outDir === outDir) this.previous = record.files
    else {
      this.previous = {}
      rmSync(outDir, { recursive: true, force: true })
    }
    mkdirSync(outDir, { recursive: true })
  }

  /** Whether `path` holds what `key` produces, from the last build. */
  unchanged(path: string, key: string): boolean {
    const before = this.previous[path]
    if (!before || before.key !== key) return false
    const stat = statOf(join(this.outDir, path))
    if (!stat || stat.size !== before.size || stat.mtimeMs !== before.mtimeMs) return false
    this.next[path] = before
    return true
  }

  /** Writes `path` unless it already holds what `key` produces. */
  write(path: string, key: string, content: () => string | Uint8Array): void {
    if (this.unchanged(path, key)) return
    const file = join(this.outDir, path)
    mkdirSync(dirname(file), { recursive: true })
    writeFileSync(file, content())
    this.recordWritten(path, key)
  }

  /** Records a file written elsewhere (a render worker) under `key`. */
  recordWritten(path: string, key: string): void {
    const stat = statSync(join(this.outDir, path))
    this.next[path] = { key, size: stat.size, mtimeMs: stat.mtimeMs }
    this.written++
  }

  /** Removes what the last build wrote and this one did not; returns the new record. */
  finish(): OutputRecord {
    for (const path of Object.keys(this.previous))
      if (!this.next[path]) {
        rmSync(join(this.outDir, path), { force: true })
        this.removed++
      }
    return { outDir: this.outDir, files: this.next }
  }
}
