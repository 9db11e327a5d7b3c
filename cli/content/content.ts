// Finds the Markdown docs under content/docs/, reads their front matter and gives each its
// doc id and route. No Markdown is parsed here.

import { createHash } from 'node:crypto'
import { readdirSync, readFileSync } from 'node:fs'
import { join, posix, relative, sep } from 'node:path'
import type { Diagnostic, Diagnostics } from '../errors.ts'
import { bodyOf, type FrontMatter, parseSource } from './front-matter.ts'

export interface DocSource {
  /** Absolute path of the Markdown file. */
  file: string
  /** Path relative to the project root, for messages. */
  displayPath: string
  /** Path relative to content/docs/, with forward slashes. */
  relPath: string
  /** Folder of the doc inside content/docs/ ('' at the top). */
  dir: string
  /** e.g. `admin/authentication/mfa-policy`; a folder's index page is `admin/index`. */
  id: string
  isIndex: boolean
  /** e.g. `/docs/admin/authentication/mfa-policy/`. */
  route: string
  frontMatter: FrontMatter
  body: string
  /**
   * SHA-256 of the file's path and text, which the front matter and body follow from: keys
   * take it instead of hashing the body again.
   */
  textKey: string
  /** The locale or archived version it belongs to (model/variants.ts `key`); none: the default. */
  variant?: string
  /**
   * A page of a locale that is not translated yet: the default locale's doc at this file, whose
   * rendering it shows (`file` is where its translation would be).
   */
  fallbackOf?: string
}

const toPosix = (path: string) => path.split(sep).join('/')

export const listMarkdownFiles = (docsDir: string): string[] =>
  (readdirSync(docsDir, { recursive: true, withFileTypes: true }) as import('node:fs').Dirent[])
    .filter((entry) => entry.isFile() && entry.name.endsWith('.md'))
    .map((entry) => join(entry.parentPath, entry.name))
    .sort()

/** The route of a doc from its folder, file name and optional slug. */
export const routeOf = (baseUrl: string, relPath: string, slug: string | undefined): string => {
  const dir = posix.dirname(relPath) === '.' ? '' : posix.dirname(relPath)
  const name = posix.basename(relPath, '.md')
  let path: string
  if (slug !== undefined) path = slug.startsWith('/') ? slug : posix.join(dir, slug)
  else path = name === 'index' ? dir : posix.join(dir, name)
  const clean = posix
    .normalize(`/${path}/`)
    .replace(/\/+/g, '/')
    .replace(/^\/|\/$/g, '')
  return clean ? `${baseUrl}${clean}/` : baseUrl
}

export interface LoadOptions {
  root: string
  docsDir: string
  baseUrl: string
  /** Parsed front matter by a hash of the file's path and text (the build cache keeps it). */
  frontMatters?: Map<string, ParsedFrontMatter>
}

export interface ParsedFrontMatter {
  frontMatter: FrontMatter
  problems: Diagnostic[]
}

/** Parses the front matter once per path and text; YAML parsing is most of reading a doc. */
const frontMatterOf = (options: LoadOptions, displayPath: string, source: string) => {
  const key = createHash('sha256').update(displayPath).update('\0').update(source).digest('hex')
  const known = options.frontMatters?.get(key)
  if (known) return { ...known, body: bodyOf(source), key }
  const { result, diagnostics: problems } = parseSource(displayPath, source)
  options.frontMatters?.set(key, { frontMatter: result.frontMatter, problems })
  return { frontMatter: result.frontMatter, problems, body: result.body, key }
}

export const readDoc = (
  options: LoadOptions,
  file: string,
  diagnostics: Diagnostics,
  /** The file's text when the caller has read it already. */
  text?: string,
): DocSource | undefined => {
  const displayPath = toPosix(relative(options.root, file))
  let source: string
  try {
    source = text ?? readFileSync(file, 'utf8')
  } catch (error) {
    diagnostics.error({ file: displayPath, message: `cannot read: ${(error as Error).message}` })
    return undefined
  }
  const result = frontMatterOf(options, displayPath, source)
  for (const problem of result.problems) diagnostics.error(problem)
  const relPath = toPosix(relative(options.docsDir, file))
  const dir = posix.dirname(relPath) === '.' ? '' : posix.dirname(relPath)
  const name = posix.basename(relPath, '.md')
  const idName = result.frontMatter.id ?? name
  return {
    file,
    displayPath,
    relPath,
    dir,
    id: dir ? `${dir}/${idName}` : idName,
    isIndex: name === 'index',
    route: routeOf(options.baseUrl, relPath, result.frontMatter.slug),
    frontMatter: result.frontMatter,
    body: result.body,
    textKey: result.key,
  }
}

/** Reads every doc; duplicate routes and ids only warn, the later file wins. */
export const loadDocs = (options: LoadOptions, diagnostics: Diagnostics): DocSource[] => {
  const docs: DocSource[] = []
  const byRoute = new Map<string, DocSource>()
  const byId = new Map<string, DocSource>()
  for (const file of listMarkdownFiles(options.docsDir)) {
    const doc = readDoc(options, file, diagnostics)
    if (!doc) continue
    const sameRoute = byRoute.get(doc.route)
    if (sameRoute) {
      diagnostics.warn({
        file: doc.displayPath,
        message: `duplicate route ${doc.route}, also produced by ${sameRoute.displayPath}; this file wins`,
      })
      docs.splice(docs.indexOf(sameRoute), 1)
    }
    const sameId = byId.get(doc.id)
    if (sameId && sameId !== sameRoute)
      diagnostics.error({
        file: doc.displayPath,
        message: `duplicate doc id "${doc.id}", also used by ${sameId.displayPath}`,
      })
    byRoute.set(doc.route, doc)
    byId.set(doc.id, doc)
    docs.push(doc)
  }
  return docs
}
