// The `docs` command line: dispatches to build and serve.
import { resolve } from 'node:path'
import { Command, InvalidArgumentError } from 'commander'
import { BuildFailedError } from './errors.ts'
import { exitWithError, printDiagnostics, task } from './log.ts'

const port = (value: string): number => {
  const n = Number(value)
  if (!Number.isInteger(n) || n < 0 || n > 65535)
    throw new InvalidArgumentError('must be a port number (0-65535).')
  return n
}

const count = (value: string): number => {
  const n = Number(value)
  if (!Number.isInteger(n) || n < 1 || n > 64)
    throw new InvalidArgumentError('must be a whole number from 1 to 64.')
  return n
}

export const createProgram = (): Command => {
  const program = new Command('docs')
    .description('Build and serve the Keyward documentation site.')
    .option('--root <dir>', 'project folder holding content/', '.')
    .showHelpAfterError()

  program
    .command('build')
    .description('render content/ into a static site')
    .option('-o, --out <dir>', 'output folder', 'build')
    .option('-w, --workers <n>', 'render threads for big sites (default: one per core)', count)
    .option('--no-cache', 'ignore and keep no build cache (<root>/.cache/docs)')
    .option('--timings', 'print how long each step took')
    .action(
      async (options: { out: string; workers?: number; cache: boolean; timings?: boolean }) => {
        const { root } = program.opts<{ root: string }>()
        const { build } = await import('./build.ts')
        const result = await task('built site', () =>
          build({
            root: resolve(root),
            outDir: resolve(options.out),
            workers: options.workers,
            cacheDir: options.cache ? undefined : false,
          }),
        )
        printDiagnostics([], result.warnings)
        if (options.timings)
          for (const stage of result.stages)
            console.log(`  ${stage.name}: ${Math.round((stage.end - stage.start) / 1000)} ms`)
        console.log(
          `${result.routes.length} pages written to ${resolve(options.out)} (${result.cached} from the cache)`,
        )
      },
    )

  program
    .command('serve')
    .description(
      'dev server that rebuilds on change and reloads the browser; with --dir, serve a built site',
    )
    .option('-p, --port <n>', 'port to listen on', port, 3000)
    .option('--host <host>', 'address to listen on', '127.0.0.1')
    .option('--open', 'open the site in a browser')
    .option('--dir <dir>', 'serve this already built folder instead of building')
    .action(async (options: { port: number; host: string; open?: boolean; dir?: string }) => {
      const { root } = program.opts<{ root: string }>()
      const { serve } = await import('./serve/serve.ts')
      await serve({ root: resolve(root), ...options, dir: options.dir && resolve(options.dir) })
    })

  program
    .command('version <name>')
    .description(
      'snapshot content/docs/ as an archived version, kept in content/versions/ under its name',
    )
    .option('--label <label>', 'what the version menu shows (default: the name)')
    .action(async (name: string, options: { label?: string }) => {
      const { root } = program.opts<{ root: string }>()
      const { snapshotVersion } = await import('./content/snapshot.ts')
      const { docsDir } = snapshotVersion(resolve(root), name, options.label)
      console.log(
        `version "${name}" archived in ${docsDir}; listed in content/versions/versions.json`,
      )
    })

  return program
}

export const main = async (argv: string[]): Promise<void> => {
  try {
    await createProgram().parseAsync(argv)
  } catch (error) {
    if (error instanceof BuildFailedError) {
      printDiagnostics(error.diagnostics, [])
      console.error(`build failed: ${error.diagnostics.length} error(s)`)
      process.exit(1)
    }
    exitWithError(error)
  }
}
