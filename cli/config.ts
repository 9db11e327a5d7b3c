// Loads and validates `content/site.config.ts` and `content/sidebars.ts` into a normalized SiteConfig.
import { existsSync } from 'node:fs'
import { join, relative } from 'node:path'
import { fileURLToPath } from 'node:url'
import { BuildFailedError, DocsError, issuesToDiagnostics } from './errors.ts'
import { bundleErrorMessage, withBundledModule } from './module-bundle.ts'
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
}

/** What config files import their helpers from, wherever the site lives. */
const DEFINE_SPECIFIER = 'keyward/docs'
const DEFINE_FILE = fileURLToPath(new URL('./define.ts', import.meta.url))

/**
 * Imports a config file bundled with esbuild (cli/module-bundle.ts), so no TypeScript loader
 * runs in the build's thread (a loader's hooks thread costs every later import a round trip),
 * and each load is fresh (the dev server after an edit).
 */
const importModule = async (file: string, root: string): Promise<unknown> => {
  let mod: { default?: unknown }
  try {
    mod = await withBundledModule(file, (url) => import(url), { [DEFINE_SPECIFIER]: DEFINE_FILE })
  } catch (error) {
    throw new DocsError(`${relative(root, file)}: ${bundleErrorMessage(error)}`)
  }
  if (mod.default === undefined) throw new DocsError(`${relative(root, file)}: no default export`)
  return mod.default
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
  const raw = await importModule(file, options.root)
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
