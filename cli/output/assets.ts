// Static assets: the client script bundle (esbuild) and the stylesheet under hashed names,
// the sidebars' JSON, and the list of content/static/ (the build copies those files as they are).
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { join, relative, sep } from 'node:path'
import { fileURLToPath } from 'node:url'
import { build, transform } from 'esbuild'
import type { SidebarItem, SiteAssets } from '../../model/site-model.ts'
import type { BuildCache } from '../cache/build-cache.ts'
import { templatesKey } from '../cache/code-keys.ts'
import { hashInput, hashOf } from '../cache/hash.ts'
import { katexAssets } from './katex-assets.ts'
import { hasOverrides, type Theme, themeKey, themePlugin } from './theme.ts'

export const TEMPLATES_DIR = fileURLToPath(new URL('../../templates/', import.meta.url))
/** The toolchain's own folder (where its node_modules are). */
export const PACKAGE_ROOT = fileURLToPath(new URL('../../', import.meta.url))

/**
 * Bundles the browser code: `main` (with search parts split into chunks loaded on demand), the
 * search worker, the search results page, and in dev the live-reload client. Returns output
 * paths below the base, the chunks `main` imports up front, and every bundled source module.
 */
export const bundleClient = async (outBase: string, dev: boolean, theme?: Theme) => {
  const entryPoints = [
    'client/main.ts',
    'client/search-worker.ts',
    'client/search-page.ts',
    ...(dev ? ['client/dev-reload.ts'] : []),
  ].map((entry) => join(TEMPLATES_DIR, entry))
  const result = await build({
    entryPoints,
    bundle: true,
    splitting: true,
    format: 'esm',
    minify: true,
    target: 'es2022',
    jsx: 'automatic',
    define: { 'process.env.NODE_ENV': '"production"' },
    outdir: join(outBase, 'assets', 'js'),
    entryNames: '[name].[hash]',
    chunkNames: 'chunk.[hash]',
    write: false,
    metafile: true,
    logLevel: 'silent',
    plugins: hasOverrides(theme) ? [themePlugin(theme)] : [],
    // Aliases and packages resolve from the toolchain's folder wherever the site lives.
    absWorkingDir: PACKAGE_ROOT,
  })
  const files = new Map<string, Uint8Array>(
    result.outputFiles.map((file) => [
      relative(outBase, file.path).split(sep).join('/'),
      file.contents,
    ]),
  )
  const entryOutput = (name: string) =>
    Object.entries(result.metafile.outputs).find(([, output]) =>
      output.entryPoint?.endsWith(name),
    )?.[0]
  const url = (name: string) => {
    const path = entryOutput(name)
    return path ? relative(outBase, path).split(sep).join('/') : undefined
  }
  const outputUrl = (path: string) => relative(outBase, path).split(sep).join('/')
  /** The chunks a page loads before any interaction: `main` and its static imports. */
  const initial = new Set<string>()
  const visit = (path: string) => {
    if (initial.has(path)) return
    initial.add(path)
    for (const imported of result.metafile.outputs[path].imports)
      if (imported.kind === 'import-statement') visit(imported.path)
  }
  visit(entryOutput('client/main.ts')!)
  /** What the bootstrap imports at idle or first interaction: React, the islands, the router. */
  const app = new Set<string>()
  const visitApp = (path: string) => {
    if (app.has(path) || initial.has(path)) return
    app.add(path)
    for (const imported of result.metafile.outputs[path].imports)
      if (imported.kind === 'import-statement') visitApp(imported.path)
  }
  visitApp(entryOutput('client/app.ts')!)
  return {
    files,
    initial: [...initial].map(outputUrl),
    app: [...app].map(outputUrl),
    modules: Object.keys(result.metafile.inputs),
    js: url('client/main.ts')!,
    searchWorker: url('client/search-worker.ts')!,
    searchPage: url('client/search-page.ts')!,
    devReload: url('client/dev-reload.ts'),
  }
}

/** The client's files below the base URL (hashed CSS and JS), and their addresses. */
export interface ClientAssets {
  assets: Omit<SiteAssets, 'sidebars'>
  files: Map<string, string | Uint8Array>
}

/** Builds the stylesheet and the script bundles; nothing is written. */
export const buildAssets = async (
  baseUrl: string,
  dev: boolean,
  theme?: Theme,
): Promise<ClientAssets> => {
  // The site's stylesheets come after Keyward's, so their rules win at equal specificity.
  const sources = [join(TEMPLATES_DIR, 'styles.css'), ...(theme?.css ?? [])]
  const { code: css } = await transform(
    sources.map((file) => readFileSync(file, 'utf8')).join('\n'),
    { loader: 'css', minify: true },
  )
  const cssFile = `assets/css/styles.${hashOf(css)}.css`
  // esbuild wants an output folder; paths are taken relative to it and nothing lands there.
  const js = await bundleClient(join(PACKAGE_ROOT, '.docs-client'), dev, theme)
  const math = katexAssets()
  const files = new Map<string, string | Uint8Array>([[cssFile, css], ...js.files, ...math.files])
  return {
    files,
    assets: {
      css: `${baseUrl}${cssFile}`,
      mathCss: `${baseUrl}${math.css}`,
      js: `${baseUrl}${js.js}`,
      searchWorker: `${baseUrl}${js.searchWorker}`,
      searchPage: `${baseUrl}${js.searchPage}`,
      preload: [...js.initial.filter((path) => path !== js.js), ...js.app].map(
        (path) => `${baseUrl}${path}`,
      ),
      devReload: js.devReload && `${baseUrl}${js.devReload}`,
    },
  }
}

/** Each sidebar as `assets/data/sidebar-<id>.<hash>.json`: files below the base URL and addresses. */
export const sidebarData = (
  baseUrl: string,
  sidebars: Record<string, SidebarItem[]>,
): { files: Map<string, string>; urls: Record<string, string> } => {
  const files = new Map<string, string>()
  const urls: Record<string, string> = {}
  for (const [id, items] of Object.entries(sidebars)) {
    const json = JSON.stringify(items)
    const file = `assets/data/sidebar-${id}.${hashOf(json)}.json`
    files.set(file, json)
    urls[id] = `${baseUrl}${file}`
  }
  return { files, urls }
}

/** Lists content/static/ as URL paths below the base URL. */
export const listStaticFiles = (staticDir: string, baseUrl: string): Set<string> => {
  if (!existsSync(staticDir)) return new Set()
  return new Set(
    (readdirSync(staticDir, { recursive: true, withFileTypes: true }) as import('node:fs').Dirent[])
      .filter((entry) => entry.isFile())
      .map(
        (entry) =>
          `${baseUrl}${relative(staticDir, join(entry.parentPath, entry.name)).split(sep).join('/')}`,
      ),
  )
}

/** The client bundle, from the build cache when the templates are unchanged. */
export const cachedClientAssets = async (
  cache: BuildCache | undefined,
  baseUrl: string,
  dev: boolean,
  theme?: Theme,
): Promise<ClientAssets> => {
  const key = hashInput([templatesKey(), themeKey(theme), dev, baseUrl])
  const cached = cache?.entry<{
    assets: ClientAssets['assets']
    files: [string, string | Uint8Array][]
  }>('client', key)
  if (cached) return { assets: cached.assets, files: new Map(cached.files) }
  const built = await buildAssets(baseUrl, dev, theme)
  cache?.storeEntry('client', key, { assets: built.assets, files: [...built.files] })
  return built
}
