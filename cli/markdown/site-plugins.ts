// The site's own remark and rehype plugins (`markdown` in site.config.ts): resolved once from the
// site folder when the config loads, keyed for the build cache, and loaded by each renderer.
// A plugin that throws fails the render of the doc it ran on, naming the plugin.
import { createHash } from 'node:crypto'
import { existsSync, readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join, relative, sep } from 'node:path'
import { pathToFileURL } from 'node:url'
import type { Pluggable, PluggableList, Plugin, Processor } from 'unified'
import type { MarkdownPluginConfig, SiteConfig } from '../../model/site-config.ts'
import { withBundledModule } from '../config/module-bundle.ts'
import { type Diagnostic, DocsError } from '../errors.ts'

export type PluginKind = 'remark' | 'rehype'

/** A plugin as the renderers get it: plain data, so it crosses to the render workers. */
export interface PluginRef {
  kind: PluginKind
  /** As written in the config: names the plugin in messages. */
  specifier: string
  /** The module it resolved to. */
  file: string
  options?: unknown
}

/** Resolves the config's plugins from `siteDir`; a plugin not found is a diagnostic. */
export const resolveMarkdownPlugins = (
  siteDir: string,
  config: SiteConfig['markdown'],
  configFile: string,
  diagnostics: Diagnostic[],
): PluginRef[] => {
  const require = createRequire(join(siteDir, 'site.config.ts'))
  const refs: PluginRef[] = []
  const add = (kind: PluginKind, entries: MarkdownPluginConfig[]) =>
    entries.forEach((entry, i) => {
      const [specifier, options] = typeof entry === 'string' ? [entry, undefined] : entry
      try {
        refs.push({ kind, specifier, file: require.resolve(specifier), options })
      } catch {
        diagnostics.push({
          file: configFile,
          message: `markdown.${kind}Plugins.${i}: cannot find "${specifier}" from ${siteDir}`,
        })
      }
    })
  add('remark', config.remarkPlugins)
  add('rehype', config.rehypePlugins)
  return refs
}

/** The package.json of the package holding `file`, if any: its version is part of the key. */
const packageManifest = (file: string): string | undefined => {
  if (!file.includes(`${sep}node_modules${sep}`)) return undefined
  for (let dir = dirname(file); dir !== dirname(dir); dir = dirname(dir)) {
    const manifest = join(dir, 'package.json')
    if (existsSync(manifest)) return manifest
  }
  return undefined
}

/** The plugins' identity for the build cache: each one's code, package manifest and options. */
export const markdownPluginsKey = (plugins: PluginRef[]): string => {
  const hash = createHash('sha256')
  for (const { kind, specifier, file, options } of plugins) {
    const manifest = packageManifest(file)
    hash.update(`${kind}\0${specifier}\0${file}\0${JSON.stringify(options) ?? ''}\0`)
    hash.update(existsSync(file) ? readFileSync(file) : '').update('\0')
    if (manifest) hash.update(readFileSync(manifest)).update('\0')
  }
  return hash.digest('hex')
}

/** Thrown by a site plugin while it transforms a doc. */
export class PluginFailure extends Error {
  constructor(
    readonly plugin: string,
    cause: unknown,
  ) {
    super(
      `${plugin} failed: ${cause instanceof Error ? cause.message : String(cause)}`.split('\n')[0],
    )
  }
}

type Transformer = (this: unknown, tree: unknown, file: unknown) => unknown

/** Wraps a plugin so that a throw names it: while attaching (bad options), or on a doc. */
const guarded = (ref: PluginRef, plugin: Plugin<unknown[]>): Plugin<unknown[]> => {
  const name = `${ref.kind} plugin "${ref.specifier}"`
  return function (this: Processor, ...parameters: unknown[]) {
    let transformer: Transformer | undefined
    try {
      transformer = (plugin as (...a: unknown[]) => Transformer | undefined).apply(this, parameters)
    } catch (error) {
      throw new DocsError(`content/site.config.ts: ${new PluginFailure(name, error).message}`)
    }
    if (typeof transformer !== 'function') return transformer
    const transform = transformer
    return function (this: unknown, tree: unknown, file: unknown) {
      let result: unknown
      try {
        result = transform.call(this, tree, file)
      } catch (error) {
        throw new PluginFailure(name, error)
      }
      if (result instanceof Promise) {
        result.catch(() => {})
        throw new PluginFailure(name, 'it returned a promise; Markdown plugins must be synchronous')
      }
      return result
    } as never
  }
}

const importPlugin = async (ref: PluginRef): Promise<unknown> => {
  const isPackage = ref.file.includes(`${sep}node_modules${sep}`)
  // The site's own files may be TypeScript: they are bundled, as site.config.ts is.
  const module = (
    isPackage || /\.(?:c|m)?js$/.test(ref.file)
      ? await import(pathToFileURL(ref.file).href)
      : await withBundledModule(ref.file, (url) => import(url))
  ) as { default?: unknown }
  return module.default
}

/** Imports the plugins, each guarded, in the order of the config. */
export const loadMarkdownPlugins = async (
  refs: PluginRef[],
): Promise<Record<`${PluginKind}Plugins`, PluggableList>> => {
  const loaded = await Promise.all(
    refs.map(async (ref): Promise<Pluggable> => {
      let plugin: unknown
      try {
        plugin = await importPlugin(ref)
      } catch (error) {
        throw new DocsError(
          `content/site.config.ts: ${ref.kind} plugin "${ref.specifier}" (${relative(process.cwd(), ref.file)}) cannot be loaded: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}`,
        )
      }
      if (typeof plugin !== 'function')
        throw new DocsError(
          `content/site.config.ts: ${ref.kind} plugin "${ref.specifier}" has no function as its default export`,
        )
      const wrapped = guarded(ref, plugin as Plugin<unknown[]>)
      return ref.options === undefined ? wrapped : [wrapped, ref.options]
    }),
  )
  return {
    remarkPlugins: loaded.filter((_, i) => refs[i].kind === 'remark'),
    rehypePlugins: loaded.filter((_, i) => refs[i].kind === 'rehype'),
  }
}
