// Static assets: the client script bundle (esbuild) and the stylesheet under hashed names,
// and the files of content/static/ copied as they are.
import { createHash } from 'node:crypto'
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { dirname, join, relative, sep } from 'node:path'
import { fileURLToPath } from 'node:url'
import { build, transform } from 'esbuild'
import type { SidebarItem, SiteAssets } from '../templates/model.ts'

export const TEMPLATES_DIR = fileURLToPath(new URL('../templates/', import.meta.url))

/** The 8-hex content hash in asset file names. */
export const hashOf = (content: string | Uint8Array) =>
  createHash('sha256').update(content).digest('hex').slice(0, 8)

/**
 * The islands are React components (server-rendered by React); in the browser they run on
 * preact/compat, which implements the same API in a tenth of React DOM's size, so a doc page
 * stays inside its JavaScript budget.
 */
const BROWSER_REACT = {
  react: 'preact/compat',
  'react-dom': 'preact/compat',
  'react-dom/client': 'preact/compat/client',
  'react/jsx-runtime': 'preact/jsx-runtime',
}

/**
 * Bundles the browser code: `main` (with search parts split into chunks loaded on demand), the
 * search worker, the search results page, and in dev the live-reload client. Returns output
 * paths below the base, the chunks `main` imports up front, and every bundled source module.
 */
export const bundleClient = async (outBase: string, dev: boolean) => {
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
    alias: BROWSER_REACT,
    define: { 'process.env.NODE_ENV': '"production"' },
    outdir: join(outBase, 'assets', 'js'),
    entryNames: '[name].[hash]',
    chunkNames: 'chunk.[hash]',
    write: false,
    metafile: true,
    logLevel: 'silent',
  })
  mkdirSync(join(outBase, 'assets', 'js'), { recursive: true })
  for (const file of result.outputFiles) writeFileSync(file.path, file.contents)
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
  return {
    initial: [...initial].map(outputUrl),
    modules: Object.keys(result.metafile.inputs),
    js: url('client/main.ts')!,
    searchWorker: url('client/search-worker.ts')!,
    searchPage: url('client/search-page.ts')!,
    devReload: url('client/dev-reload.ts'),
  }
}

/** Writes hashed CSS and JS below `outBase` (the folder served at the base URL). */
export const writeAssets = async (
  outBase: string,
  baseUrl: string,
  dev: boolean,
): Promise<Omit<SiteAssets, 'sidebars'>> => {
  const { code: css } = await transform(readFileSync(join(TEMPLATES_DIR, 'styles.css'), 'utf8'), {
    loader: 'css',
    minify: true,
  })
  const cssFile = `assets/css/styles.${hashOf(css)}.css`
  mkdirSync(join(outBase, 'assets', 'css'), { recursive: true })
  writeFileSync(join(outBase, cssFile), css)
  const js = await bundleClient(outBase, dev)
  return {
    css: `${baseUrl}${cssFile}`,
    js: `${baseUrl}${js.js}`,
    searchWorker: `${baseUrl}${js.searchWorker}`,
    searchPage: `${baseUrl}${js.searchPage}`,
    preload: js.initial.filter((path) => path !== js.js).map((path) => `${baseUrl}${path}`),
    devReload: js.devReload && `${baseUrl}${js.devReload}`,
  }
}

/** Writes each sidebar as `assets/data/sidebar-<id>.<hash>.json`; returns their addresses. */
export const writeSidebarData = (
  outBase: string,
  baseUrl: string,
  sidebars: Record<string, SidebarItem[]>,
): Record<string, string> => {
  mkdirSync(join(outBase, 'assets', 'data'), { recursive: true })
  return Object.fromEntries(
    Object.entries(sidebars).map(([id, items]) => {
      const json = JSON.stringify(items)
      const file = `assets/data/sidebar-${id}.${hashOf(json)}.json`
      writeFileSync(join(outBase, file), json)
      return [id, `${baseUrl}${file}`]
    }),
  )
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

export const copyStaticFiles = (staticDir: string, outBase: string): void => {
  if (existsSync(staticDir)) cpSync(staticDir, outBase, { recursive: true })
}

export const copyFileTo = (source: string, target: string): void => {
  mkdirSync(dirname(target), { recursive: true })
  cpSync(source, target)
}
