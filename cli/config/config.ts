// Loads and validates `content/site.config.ts` and `content/sidebars.ts` into a normalized SiteConfig.
import { existsSync, readFileSync } from 'node:fs'
import { join, relative } from 'node:path'
import { fileURLToPath } from 'node:url'
import { type SiteConfig, siteConfigSchema } from '../../model/site-config.ts'
import { archivedVersionsSchema, VERSIONS_FILE } from '../content/snapshot.ts'
import { BuildFailedError, type Diagnostic, DocsError, issuesToDiagnostics } from '../errors.ts'
import { type PluginRef, resolveMarkdownPlugins } from '../markdown/site-plugins.ts'
import { loadTheme, type Theme } from '../output/theme.ts'
import { loadLocaleStrings } from './locale-strings.ts'
import { bundleErrorMessage, withBundledModule } from './module-bundle.ts'
import { type SidebarsConfig, sidebarsConfigSchema } from './sidebars-config.ts'

export interface ResolvedConfig {
  /** Absolute project root (the folder holding `content/`). */
  root: string
  contentDir: string
  docsDir: string
  staticDir: string
  site: SiteConfig
  sidebars: SidebarsConfig
  /** The site's Markdown plugins (`markdown` in site.config.ts), resolved from `contentDir`. */
  markdownPlugins: PluginRef[]
  /** The site's component overrides (`content/theme/`) and `customCss`. */
  theme: Theme
}

export interface ResolveOptions {
  root: string
}

/** What config files import their helpers from, wherever the site lives. */
const DEFINE_SPECIFIER = 'keyward/docs'
const DEFINE_FILE = fileURLToPath(new URL('./define.ts', import.meta.url))

/**
 * Imports a config file bundled with esbuild (cli/config/module-bundle.ts), so no TypeScript loader
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

/** Adds the versions `docs version` listed in content/versions/versions.json, checked again. */
const withArchivedVersions = (contentDir: string, site: SiteConfig): SiteConfig => {
  const file = join(contentDir, VERSIONS_FILE)
  if (!existsSync(file)) return site
  const display = `content/${VERSIONS_FILE}`
  let listed: unknown
  try {
    listed = JSON.parse(readFileSync(file, 'utf8'))
  } catch (error) {
    throw new DocsError(`${display}: not JSON: ${(error as Error).message}`)
  }
  const archived = archivedVersionsSchema.safeParse(listed)
  if (!archived.success)
    throw new BuildFailedError(issuesToDiagnostics(display, archived.error.issues))
  const known = new Set(site.versions.map((version) => version.name))
  const merged = siteConfigSchema.safeParse({
    ...site,
    versions: [...site.versions, ...archived.data.filter((version) => !known.has(version.name))],
  })
  if (!merged.success) throw new BuildFailedError(issuesToDiagnostics(display, merged.error.issues))
  return merged.data
}

export const resolveConfig = async (options: ResolveOptions): Promise<ResolvedConfig> => {
  const contentDir = join(options.root, 'content')
  if (!existsSync(contentDir)) throw new DocsError(`${options.root}: no content/ folder here`)
  const site = withArchivedVersions(
    contentDir,
    await loadValidated(join(contentDir, 'site.config.ts'), siteConfigSchema, options),
  )
  const sidebars = await loadValidated(
    join(contentDir, 'sidebars.ts'),
    sidebarsConfigSchema,
    options,
  )
  const problems: Diagnostic[] = []
  const markdownPlugins = resolveMarkdownPlugins(
    contentDir,
    site.markdown,
    'content/site.config.ts',
    problems,
  )
  const theme = loadTheme(contentDir, site.customCss, 'content/site.config.ts', problems)
  if (site.locales.items.length > 1) loadLocaleStrings(contentDir, site, problems)
  if (problems.length) throw new BuildFailedError(problems)
  return {
    root: options.root,
    contentDir,
    docsDir: join(contentDir, 'docs'),
    staticDir: join(contentDir, 'static'),
    site,
    sidebars,
    markdownPlugins,
    theme,
  }
}
