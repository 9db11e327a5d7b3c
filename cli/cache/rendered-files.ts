// Each cached doc's HTML and search sections, most of a doc's bytes, in a file of its own
// (`rendered/<render key>`), so a warm build neither decodes nor rewrites them: a file is read
// only when its page is written or the search index must analyse the doc again. In a build with
// render workers, each worker writes the files of the docs it renders and reads them back for
// the pages it writes, and the search worker reads the sections it analyses: the main thread
// holds none of them.
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import type { Section } from '../markdown/rehype-sections.ts'
import { writeAtomically } from './cache-file.ts'

export interface RenderedBody {
  html: string
  sections: Section[]
}

/** A doc's file: its sections' JSON (which holds no raw line break) on the first line, then its HTML. */
const encode = ({ html, sections }: RenderedBody) => `${JSON.stringify(sections)}\n${html}`

const decode = (text: string): RenderedBody => {
  const end = text.indexOf('\n')
  return { sections: JSON.parse(text.slice(0, end)) as Section[], html: text.slice(end + 1) }
}

/** The body kept in `file` (a path from `RenderedFiles.path`). */
export const readRendered = (file: string): RenderedBody => decode(readFileSync(file, 'utf8'))

export class RenderedFiles {
  /** Set once the folder is known to exist: a cold build stores thousands of docs. */
  private made = false
  /** The names in the folder, listed once rather than asked doc by doc. */
  private names: Set<string> | undefined

  constructor(readonly dir: string) {}

  has(key: string): boolean {
    this.names ??= new Set(existsSync(this.dir) ? readdirSync(this.dir) : [])
    return this.names.has(key)
  }

  /** Where the body of `key` is kept. */
  path(key: string): string {
    return join(this.dir, key)
  }

  /** The body of `key`, read on first use. */
  reader(key: string): () => RenderedBody {
    let body: RenderedBody | undefined
    return () => {
      body ??= readRendered(this.path(key))
      return body
    }
  }

  /** Notes that `key` was written by another thread (a render worker). */
  written(key: string): void {
    this.names?.add(key)
  }

  write(key: string, body: RenderedBody): void {
    const file = join(this.dir, key)
    if (!existsSync(file)) {
      if (!this.made) mkdirSync(this.dir, { recursive: true })
      this.made = true
      writeAtomically(file, encode(body))
    }
    this.names?.add(key)
  }

  /** Removes every file whose key is not in `kept`. */
  prune(kept: Set<string>): void {
    if (!existsSync(this.dir)) return
    for (const name of readdirSync(this.dir))
      if (!kept.has(name)) {
        rmSync(join(this.dir, name), { force: true })
        this.names?.delete(name)
      }
  }
}
