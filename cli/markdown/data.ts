// What the Markdown transformers leave on `file.data` for the build to use.
export interface LinkRef {
  /** Absolute URL path with optional hash, e.g. `/docs/admin/#roles`. */
  url: string
  line?: number
}

export interface TocHeading {
  id: string
  text: string
  level: number
}

/** `url` is written to the page; `check`, when set, is the absolute path the link check verifies. */
export type LinkResolution = { url: string; check?: string } | { error: string }

/** Resolves a link or image reference written in the file at `fromFile`. */
export type ReferenceResolver = (href: string, fromFile: string) => LinkResolution

declare module 'vfile' {
  interface DataMap {
    links: LinkRef[]
    headings: TocHeading[]
    /** Every id in the page, for anchor checks. */
    ids: string[]
    /** Text of a leading `# Title`, removed from the body. */
    h1?: string
    /** Searchable sections of the page. */
    sections: import('./rehype-sections.ts').Section[]
  }
}

/** Per-file state shared by the steps of the single mdast pass. */
export interface StepContext {
  file: import('vfile').VFile
  resolveLink: ReferenceResolver
  resolveImage: ReferenceResolver
  /** Tab sets seen so far, for unique ids. */
  tabSets: number
}
