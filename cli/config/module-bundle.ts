// Runs a module of a site or of the server (TypeScript, JSX, its own imports) without a
// TypeScript loader: esbuild bundles it into one plain JavaScript file in a temporary folder,
// which the caller imports (or hands to a worker) and which is removed afterwards. Packages stay
// external but are imported by the path they resolve to from their importer, so the bundle runs
// from anywhere.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { build, type Plugin } from 'esbuild'
import { keepModuleUrls } from '../module-urls.js'

/** Resolves packages from their importer. */
const runnableAnywhere: Plugin = {
  name: 'runnable-anywhere',
  setup(esbuild) {
    esbuild.onResolve({ filter: /^[^./]/ }, async (args) => {
      if (args.pluginData?.inner || args.path.startsWith('node:')) return undefined
      const resolved = await esbuild.resolve(args.path, {
        kind: args.kind,
        importer: args.importer,
        resolveDir: args.resolveDir,
        pluginData: { inner: true },
      })
      if (resolved.errors.length) return { errors: resolved.errors }
      return { path: resolved.external ? args.path : resolved.path, external: true }
    })
  },
}

/** Bare specifiers answered before any lookup: name to absolute file. */
const aliasPlugin = (aliases: Record<string, string>): Plugin => ({
  name: 'aliases',
  setup(esbuild) {
    const names = Object.keys(aliases)
    if (!names.length) return
    const filter = new RegExp(
      `^(${names.map((n) => n.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')).join('|')})$`,
    )
    esbuild.onResolve({ filter }, (args) => ({ path: aliases[args.path] }))
  },
})

/** A build failure's first message, on one line. */
export const bundleErrorMessage = (error: unknown): string => {
  const failure = error as Error & { errors?: { text: string }[] }
  return failure.errors?.[0]?.text ?? String(failure.message ?? error).split('\n')[0]
}

/**
 * Bundles `file` into `dir` (as `module.mjs`) and returns the bundle's file URL. `plugins` run
 * before the ones that keep packages external.
 */
export const bundleModule = async (
  file: string,
  dir: string,
  aliases: Record<string, string> = {},
  plugins: Plugin[] = [],
): Promise<string> => {
  const { outputFiles } = await build({
    entryPoints: [file],
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    jsx: 'automatic',
    write: false,
    logLevel: 'silent',
    plugins: [...plugins, aliasPlugin(aliases), runnableAnywhere, keepModuleUrls],
  })
  const bundle = join(dir, 'module.mjs')
  writeFileSync(bundle, outputFiles[0].contents)
  return pathToFileURL(bundle).href
}

/**
 * Bundles `file` and calls `use` with the bundle's file URL; the bundle is removed once `use`
 * settles. `aliases` maps bare specifiers to files.
 */
export const withBundledModule = async <T>(
  file: string,
  use: (url: string) => Promise<T>,
  aliases: Record<string, string> = {},
): Promise<T> => {
  const dir = mkdtempSync(join(tmpdir(), 'keyward-module-'))
  try {
    return await use(await bundleModule(file, dir, aliases))
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}
