// Loads and validates `content/site.config.ts` and `content/sidebars.ts` into a normalized SiteConfig.
import { existsSync } from 'node:fs'
import Module, { register } from 'node:module'
import { join, relative } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { BuildFailedError, DocsError, issuesToDiagnostics } from './errors.ts'
import { type SidebarsConfig, sidebarsConfigSchema } from './sidebars-config.ts'
import { type SiteConfig, siteConfigSchema } from './site-config.ts'

export interface ResolvedConfig {
  /** Absolute project root (the folder holding `content/`). */
  root: string
  contentDir: string
  docsDir: string
  staticDir: string
  site: SiteConfig
  sidebars: SidebarsConfig
}

export interface ResolveOptions {
  root: string
  /** Re-import config modules even if already loaded (dev server after an edit). */
  fresh?: boolean
}

const DEFINE_SPECIFIER = 'keyward/docs'
const DEFINE_FILE = fileURLToPath(new URL('./define.ts', import.meta.url))
let hooked = false

/**
 * Lets config files import `keyward/docs` wherever the site lives: through an ESM resolve hook,
 * and for config files compiled to CommonJS (a site folder without `"type": "module"`) through
 * CommonJS resolution.
 */
const hookDefineSpecifier = () => {
  if (hooked) return
  hooked = true
  register('./config-hooks.js', import.meta.url)
  const cjs = Module as unknown as {
    _resolveFilename: (request: string, ...rest: unknown[]) => string
  }
  const resolveFilename = cjs._resolveFilename
  cjs._resolveFilename = function (this: unknown, request, ...rest) {
    return request === DEFINE_SPECIFIER ? DEFINE_FILE : resolveFilename.call(this, request, ...rest)
  }
}

const importModule = async (file: string, fresh: boolean, root: string): Promise<unknown> => {
  hookDefineSpecifier()
  const url = pathToFileURL(file)
  if (fresh) url.search = `?t=${Date.now()}`
  try {
    const mod = (await import(url.href)) as { default?: unknown }
    if (mod.default === undefined) throw new DocsError(`${relative(root, file)}: no default export`)
    return mod.default
  } catch (error) {
    if (error instanceof DocsError) throw error
    const message = error instanceof Error ? error.message.split('\n')[0] : String(error)
    throw new DocsError(`${relative(root, file)}: ${message}`)
  }
}

const loadValidated = async <T>(
  file: string,
  schema: {
    safeParse(
      v: unknown,
    ):
      | { success: true; data: T }
      | { success: false; error: { issues: { path: PropertyKey[]; message: string }[] } }
  },
  options: ResolveOptions,
): Promise<T> => {
  if (!existsSync(file)) throw new DocsError(`${relative(options.root, file)}: file not found`)
  const raw = await importModule(file, options.fresh ?? false, options.root)
  const result = schema.safeParse(raw)
  if (!result.success)
    throw new BuildFailedError(
      issuesToDiagnostics(relative(options.root, file), result.error.issues),
    )
  return result.data
}

export const resolveConfig = async (options: ResolveOptions): Promise<ResolvedConfig> => {
  const contentDir = join(options.root, 'content')
  if (!existsSync(contentDir)) throw new DocsError(`${options.root}: no content/ folder here`)
  const site = await loadValidated(join(contentDir, 'site.config.ts'), siteConfigSchema, options)
  const sidebars = await loadValidated(
    join(contentDir, 'sidebars.ts'),
    sidebarsConfigSchema,
    options,
  )
  return {
    root: options.root,
    contentDir,
    docsDir: join(contentDir, 'docs'),
    staticDir: join(contentDir, 'static'),
    site,
    sidebars,
  }
}
