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
export type LinkResolution =
  | {
      url: string
      check?: string
      /** An image's intrinsic size, when its file was read (so the page does not jump). */
      width?: number
      height?: number
    }
  | { error: string }

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

/** What the steps that resolve references get: the file and the site's resolvers. */
export interface StepContext {
  file: import('vfile').VFile
  resolveLink: ReferenceResolver
  resolveImage: ReferenceResolver
}
