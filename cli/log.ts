// Console output of the CLI: diagnostics, timed tasks, and the one-line fatal error.
import { styleText } from 'node:util'
import { type Diagnostic, DocsError, formatDiagnostic, sortDiagnostics } from './errors.ts'

const colour = (style: Parameters<typeof styleText>[0], text: string) =>
  process.stderr.isTTY ? styleText(style, text) : text

export const printDiagnostics = (errors: Diagnostic[], warnings: Diagnostic[]): void => {
  for (const w of sortDiagnostics(warnings))
    console.error(colour('yellow', formatDiagnostic(w, 'warning')))
  for (const e of sortDiagnostics(errors)) console.error(colour('red', formatDiagnostic(e)))
}

/** Runs a step and reports its duration. */
export const task = async <T>(name: string, fn: () => Promise<T>): Promise<T> => {
  const start = performance.now()
  const result = await fn()
  console.log(`${colour('green', '✓')} ${name} in ${Math.round(performance.now() - start)} ms`)
  return result
}

/** Prints the error (one line per problem, no stack for expected errors) and exits 1. */
export const exitWithError = (error: unknown): never => {
  if (error instanceof DocsError) console.error(colour('red', error.message))
  else
    console.error(colour('red', `error: ${error instanceof Error ? error.message : String(error)}`))
  process.exit(1)
}
