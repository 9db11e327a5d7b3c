// Splits a Markdown file into its YAML front matter and body, and validates the front matter.
import { createRequire } from 'node:module'
import { z } from 'zod'
import type { Diagnostic } from '../errors.ts'

/**
 * The YAML parser (CommonJS under Node), loaded on the first parse: a build whose front matter
 * all comes from the cache never pays for loading it.
 */
let yaml: typeof import('yaml') | undefined
const loadYaml = () => {
  yaml ??= createRequire(import.meta.url)('yaml') as typeof import('yaml')
  return yaml
}

const headingLevel = z.number().int().min(2).max(6)

export const frontMatterSchema = z
  .strictObject({
    id: z
      .string()
      .regex(/^[A-Za-z0-9_.-]+$/, 'letters, digits, ".", "_" and "-" only')
      .optional(),
    title: z.string().min(1).optional(),
    description: z.string().optional(),
    slug: z
      .string()
      .regex(/^[A-Za-z0-9/_.-]*$/, 'a URL path such as "/admin/mfa/" or "mfa"')
      .optional(),
    sidebar_label: z.string().min(1).optional(),
    sidebar_position: z.number().optional(),
    unlisted: z.boolean().default(false),
    hide_table_of_contents: z.boolean().default(false),
    toc_min_heading_level: headingLevel.default(2),
    toc_max_heading_level: headingLevel.default(3),
    keywords: z.array(z.string()).default([]),
    /** The picture a link preview shows (`og:image`): a path below the site or an https URL. */
    image: z
      .string()
      .regex(/^(\/|https:\/\/)/, 'a path such as "/docs/img/x.png" or an https URL')
      .optional(),
  })
  .refine((fm) => fm.toc_min_heading_level <= fm.toc_max_heading_level, {
    message: 'must not be greater than toc_max_heading_level',
    path: ['toc_min_heading_level'],
  })

export type FrontMatter = z.output<typeof frontMatterSchema>

export interface ParsedSource {
  /** Defaults only when the front matter had errors, so one mistake is reported once. */
  frontMatter: FrontMatter
  /** The body with the front matter replaced by blank lines, so positions keep the file's line numbers. */
  body: string
}

const FENCE = /^---\r?\n([\s\S]*?)\r?\n---[ \t]*(?:\r?\n|$)/

/** The body of a source: the front matter, if any, replaced by blank lines. */
export const bodyOf = (source: string): string => {
  const match = FENCE.exec(source)
  return match
    ? '\n'.repeat(match[0].split('\n').length - 1) + source.slice(match[0].length)
    : source
}

/**
 * Parses front matter; problems are returned as diagnostics naming the field and its line,
 * beside a result with default front matter so the doc still takes part in the build.
 */
export const parseSource = (
  file: string,
  source: string,
): { result: ParsedSource; diagnostics: Diagnostic[] } => {
  const match = FENCE.exec(source)
  if (!match)
    return { result: { frontMatter: frontMatterSchema.parse({}), body: source }, diagnostics: [] }
  const body = bodyOf(source)
  const fallback = { frontMatter: frontMatterSchema.parse({}), body }
  const { isMap, isScalar, LineCounter, parseDocument } = loadYaml()
  const lineCounter = new LineCounter()
  const doc = parseDocument(match[1], { lineCounter, prettyErrors: false })
  // Line 1 is the opening fence, so YAML line n is file line n + 1.
  if (doc.errors.length > 0) {
    return {
      result: fallback,
      diagnostics: doc.errors.map((e) => ({
        file,
        line: (e.linePos?.[0]?.line ?? 0) + 1,
        message: `front matter: ${e.message.split('\n')[0]}`,
      })),
    }
  }
  const raw = doc.toJS() ?? {}
  const lineOfKey = (key: PropertyKey | undefined): number => {
    if (isMap(doc.contents) && key !== undefined) {
      for (const pair of doc.contents.items) {
        if (isScalar(pair.key) && pair.key.value === key && pair.key.range)
          return lineCounter.linePos(pair.key.range[0]).line + 1
      }
    }
    return 2
  }
  if (typeof raw !== 'object' || Array.isArray(raw))
    return {
      result: fallback,
      diagnostics: [{ file, line: 2, message: 'front matter: must be a mapping of fields' }],
    }
  const parsed = frontMatterSchema.safeParse(raw)
  if (!parsed.success) {
    return {
      result: fallback,
      diagnostics: parsed.error.issues.flatMap((issue) => {
        // Unknown keys arrive as one issue listing them; report each on its own line.
        const keys =
          issue.code === 'unrecognized_keys' ? issue.keys : [issue.path[0] as string | undefined]
        return keys.map((key) => ({
          file,
          line: lineOfKey(key),
          message: `front matter field "${key ?? ''}": ${
            issue.code === 'unrecognized_keys' ? 'unknown field' : issue.message
          }`,
        }))
      }),
    }
  }
  return { result: { frontMatter: parsed.data, body }, diagnostics: [] }
}
