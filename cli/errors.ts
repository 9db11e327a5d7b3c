// Error types of the docs CLI: a fatal `DocsError` and the file:line diagnostics a build collects.

/** A failure the user can fix; the CLI prints its message as one line and exits 1. */
export class DocsError extends Error {
  override name = 'DocsError'
}

export interface Diagnostic {
  file: string
  line?: number
  message: string
}

export const formatDiagnostic = (d: Diagnostic, level?: 'warning'): string =>
  `${d.file}${d.line ? `:${d.line}` : ''}: ${level ? `${level}: ` : ''}${d.message}`

/** Collects every error and warning of one build, so all of them are reported at once. */
export class Diagnostics {
  readonly errors: Diagnostic[] = []
  readonly warnings: Diagnostic[] = []

  error(d: Diagnostic): void {
    this.errors.push(d)
  }

  warn(d: Diagnostic): void {
    this.warnings.push(d)
  }

  /** Throws one `BuildFailedError` listing every error, if there is any. */
  throwIfErrors(): void {
    if (this.errors.length > 0) throw new BuildFailedError(this.errors)
  }
}

/** Orders diagnostics by file, then line, so each file's problems read top to bottom. */
export const sortDiagnostics = (list: Diagnostic[]): Diagnostic[] =>
  [...list].sort((a, b) => a.file.localeCompare(b.file) || (a.line ?? 0) - (b.line ?? 0))

export class BuildFailedError extends DocsError {
  override name = 'BuildFailedError'
  readonly diagnostics: Diagnostic[]
  constructor(diagnostics: Diagnostic[]) {
    const sorted = sortDiagnostics(diagnostics)
    super(sorted.map((d) => formatDiagnostic(d)).join('\n'))
    this.diagnostics = sorted
  }
}

/** Turns zod issues into one diagnostic each, naming the field. */
export const issuesToDiagnostics = (
  file: string,
  issues: { path: PropertyKey[]; message: string }[],
  lineOf: (path: PropertyKey[]) => number | undefined = () => undefined,
): Diagnostic[] =>
  issues.map((issue) => ({
    file,
    line: lineOf(issue.path),
    message: `${issue.path.length ? `${issue.path.map(String).join('.')}: ` : ''}${issue.message}`,
  }))
