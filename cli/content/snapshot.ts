// `docs version <name>`: copies content/docs/ into content/versions/<name>/docs/ and lists the
// version, newest first, in content/versions/versions.json, which the config loader adds after
// the versions of site.config.ts (cli/config/config.ts).
import { cpSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { z } from 'zod'
import { DocsError } from '../errors.ts'

export const VERSIONS_FILE = 'versions/versions.json'

export const archivedVersionsSchema = z.array(
  z.strictObject({ name: z.string().min(1), label: z.string().min(1) }),
)

export interface SnapshotResult {
  /** The new version's docs folder. */
  docsDir: string
}

/** Snapshots the current docs as version `name`; refuses a name already used. */
export const snapshotVersion = (root: string, name: string, label = name): SnapshotResult => {
  if (!/^[a-z0-9][a-z0-9._-]*$/i.test(name))
    throw new DocsError(`"${name}": a version name is a URL segment, such as "v1" or "1.x"`)
  const contentDir = join(root, 'content')
  const docsDir = join(contentDir, 'docs')
  if (!existsSync(docsDir)) throw new DocsError(`${root}: no content/docs/ folder here`)
  const listFile = join(contentDir, VERSIONS_FILE)
  const listed = existsSync(listFile)
    ? archivedVersionsSchema.parse(JSON.parse(readFileSync(listFile, 'utf8')))
    : []
  const target = join(contentDir, 'versions', name, 'docs')
  if (listed.some((version) => version.name === name) || existsSync(target))
    throw new DocsError(`version "${name}" already exists (content/versions/${name}/)`)
  mkdirSync(join(contentDir, 'versions', name), { recursive: true })
  cpSync(docsDir, target, { recursive: true })
  writeFileSync(listFile, `${JSON.stringify([{ name, label }, ...listed], null, 2)}\n`)
  return { docsDir: target }
}
