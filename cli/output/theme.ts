// A site's theme: its own versions of template components (`theme/<Component>.tsx` beside
// site.config.ts) and its extra stylesheets (`customCss`). An override replaces the component
// wherever the templates import it, in the server rendering and in the browser bundle alike, by
// an esbuild plugin that answers the templates' import of the component with the site's file.
import { createHash } from 'node:crypto'
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { basename, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { Plugin } from 'esbuild'
import type { Diagnostic } from '../errors.ts'

const TEMPLATES_DIR = fileURLToPath(new URL('../../templates', import.meta.url))

/**
 * The components a site may replace, with the props each gets (the writing guide lists them).
 * Each is the function of the same name exported by `templates/<Component>.tsx`.
 */
export const OVERRIDABLE_COMPONENTS: Record<string, string> = {
  AnnouncementBar: '{ bar: { id, content, isCloseable } }',
  Brand: '(none; reads the site with useSite())',
  Breadcrumbs: '{ home, crumbs }',
  ColorModeToggle: '(none)',
  DocPage: '{ site, page, html }',
  Footer: '{ site, route }',
  LandingPage: '{ site, page }',
  Navbar: '{ route, sidebarId }',
  NotFoundPage: '{ site }',
  Pagination: '{ previous, next }',
  SearchPage: '{ site }',
  Sidebar: '{ sidebarId, route }',
  TableOfContents: '{ items }',
}

export interface Theme {
  /** The site's `theme/` folder. */
  dir: string
  /** Component name to the site's file. */
  components: Record<string, string>
  /** The site's stylesheets, in the order given, added after Keyward's. */
  css: string[]
}

/** Finds the site's overrides in `<siteDir>/theme/` and resolves `customCss` from `siteDir`. */
export const loadTheme = (
  siteDir: string,
  customCss: string[],
  configFile: string,
  diagnostics: Diagnostic[],
): Theme => {
  const components: Record<string, string> = {}
  const themeDir = join(siteDir, 'theme')
  if (existsSync(themeDir))
    for (const name of readdirSync(themeDir)) {
      if (!name.endsWith('.tsx')) continue
      const component = basename(name, '.tsx')
      if (component in OVERRIDABLE_COMPONENTS) components[component] = join(themeDir, name)
      else
        diagnostics.push({
          file: `content/theme/${name}`,
          message: `no template component is called ${component}; these can be replaced: ${Object.keys(OVERRIDABLE_COMPONENTS).join(', ')}`,
        })
    }
  const css = customCss.map((path) => resolve(siteDir, path))
  css.forEach((file, i) => {
    if (!existsSync(file))
      diagnostics.push({ file: configFile, message: `customCss.${i}: ${customCss[i]} not found` })
  })
  return { dir: themeDir, components, css }
}

export const hasOverrides = (theme: Theme | undefined): theme is Theme =>
  Boolean(theme && Object.keys(theme.components).length)

/** What the pages' HTML and the client bundle depend on in the theme: its files' contents. */
export const themeKey = (theme: Theme | undefined): string => {
  const hash = createHash('sha256')
  if (!theme) return ''
  for (const [name, file] of Object.entries(theme.components).sort())
    hash.update(`${name}\0`).update(existsSync(file) ? readFileSync(file) : '')
  for (const file of theme.css)
    hash.update(`${file}\0`).update(existsSync(file) ? readFileSync(file) : '')
  return hash.digest('hex')
}

/**
 * esbuild plugin: the templates' imports of an overridden component resolve to the site's file,
 * and the packages a site's file imports resolve from the toolchain's folder (a site need not
 * have its own node_modules: React is the templates' React).
 */
export const themePlugin = (theme: Theme): Plugin => {
  const replaced = new Map(
    Object.entries(theme.components).map(([name, file]) => [
      join(TEMPLATES_DIR, `${name}.tsx`),
      file,
    ]),
  )
  const themeDir = `${theme.dir}/`
  return {
    name: 'keyward-theme',
    setup(esbuild) {
      esbuild.onResolve({ filter: /\.tsx$/ }, (args) => {
        if (!args.importer.startsWith(TEMPLATES_DIR)) return undefined
        const path = replaced.get(resolve(args.resolveDir, args.path))
        return path ? { path } : undefined
      })
      esbuild.onResolve({ filter: /^[^./]/ }, (args) => {
        if (!args.importer.startsWith(themeDir) || args.pluginData?.fromTheme) return undefined
        return esbuild.resolve(args.path, {
          kind: args.kind,
          importer: join(TEMPLATES_DIR, 'render.tsx'),
          resolveDir: TEMPLATES_DIR,
          pluginData: { fromTheme: true },
        })
      })
    },
  }
}
