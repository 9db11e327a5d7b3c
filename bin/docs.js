#!/usr/bin/env node
// Entry point of the docs CLI. The CLI and its build workers (render, search, API document) run bundled
// by esbuild without a TypeScript loader, which spares each thread compiling the sources and the
// loader's own thread (the site's config files are bundled too, by cli/config.ts). Packages are
// bundled as well: a render worker then loads in ~0.15 s of CPU instead of ~0.4 s spent
// resolving and reading some 500 modules. The bundle is kept on disk under the hash of the
// sources and installed packages it was made from, so a start after no edit only reads and
// hashes the sources (~10 ms) instead of running esbuild (0.3-1 s on a loaded machine).
// `import.meta.url` keeps naming each source file, so paths the code derives from it (templates,
// Markdown steps) hold.
// The dev server's builder worker runs the sources through tsx: it restarts with fresh
// templates after an edit.
import { createHash } from 'node:crypto'
import {
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { build, stop } from 'esbuild'
import { keepModuleUrls } from '../cli/module-urls.js'
import { cacheFolder } from './cache-dir.js'

// React's development build is several times slower at server rendering.
process.env.NODE_ENV ??= 'production'
const root = fileURLToPath(new URL('..', import.meta.url))
const cacheBase = cacheFolder(root)
if (!cacheBase) {
  // Nowhere to keep a bundle: the sources run through tsx.
  // tsx keeps compiled files in the temporary folder, which is not writable either.
  process.env.TSX_DISABLE_CACHE = '1'
  await import('./register-ts.js')
  const { main } = await import(pathToFileURL(`${root}cli/index.ts`).href)
  await main(process.argv)
} else {
  // The docs build keeps its cache there too when the site's own folder is read-only.
  process.env.KEYWARD_RUNTIME_CACHE = cacheBase
  // node_modules may be shared by several checkouts: each keeps its own bundles.
  const cacheDir = `${cacheBase}/docs-cli-${createHash('sha256').update(root).digest('hex').slice(0, 8)}`
  const inputsFile = `${cacheDir}/inputs.json`
  /** Worker entries keep their file's name (cli/workers/start-worker.ts looks them up by it). */
  const entries = [
    'index',
    'render/render-worker',
    'search/search-indexer',
    'api-reference/document-worker',
  ]
  /** A bundle unused this long is removed when a new one is made (a running CLI may use it). */
  const STALE_MS = 24 * 3600 * 1000

  /**
   * What a bundle is made from: this file, the installed packages (npm rewrites its record of them
   * on every install) and every source of this repository (paths from the root).
   */
  const keyOf = (inputs) => {
    const hash = createHash('sha256').update(readFileSync(fileURLToPath(import.meta.url)))
    hash.update(readFileSync(`${root}node_modules/.package-lock.json`))
    for (const path of inputs)
      if (!path.startsWith('node_modules/'))
        hash.update(`\0${path}\0`).update(readFileSync(`${root}${path}`))
    return hash.digest('hex').slice(0, 24)
  }

  /** The folder of the bundle made from the sources as they are now, if there is one. */
  const cachedBundle = () => {
    try {
      const dir = `${cacheDir}/${keyOf(JSON.parse(readFileSync(inputsFile, 'utf8')))}`
      statSync(`${dir}/index.js`)
      return dir
    } catch {
      return undefined // no bundle yet, a source removed, or made from other sources
    }
  }

  const bundle = async () => {
    const temporary = `${cacheDir}/tmp-${process.pid}`
    const { metafile } = await build({
      entryPoints: Object.fromEntries(
        entries.map((path) => [path.split('/').pop(), `${root}cli/${path}.ts`]),
      ),
      outdir: temporary,
      bundle: true,
      splitting: true,
      platform: 'node',
      format: 'esm',
      target: 'node20',
      // esbuild finds its binary next to its own files; it cannot be bundled.
      external: ['esbuild'],
      // Bundled CommonJS packages (React) require Node's modules.
      banner: {
        js: "import { createRequire as keywardRequire } from 'node:module'; const require = keywardRequire(import.meta.url);",
      },
      jsx: 'automatic',
      logLevel: 'error',
      metafile: true,
      absWorkingDir: root,
      plugins: [keepModuleUrls],
    })
    await stop()
    // Hashed after bundling: a source edited meanwhile gives a key the next start will not find.
    const inputs = Object.keys(metafile.inputs).sort()
    const dir = `${cacheDir}/${keyOf(inputs)}`
    for (const name of readdirSync(cacheDir))
      if (name !== 'inputs.json' && Date.now() - statSync(`${cacheDir}/${name}`).mtimeMs > STALE_MS)
        rmSync(`${cacheDir}/${name}`, { recursive: true, force: true })
    try {
      renameSync(temporary, dir)
    } catch {
      rmSync(temporary, { recursive: true, force: true }) // another start made the same bundle
    }
    writeFileSync(`${inputsFile}.${process.pid}`, JSON.stringify(inputs))
    renameSync(`${inputsFile}.${process.pid}`, inputsFile)
    return dir
  }

  mkdirSync(cacheDir, { recursive: true })
  const dir = cachedBundle() ?? (await bundle())
  // Workers started from bundled code run the bundled entry of the same name (cli/workers/start-worker.ts).
  process.env.KEYWARD_DOCS_BUNDLE = dir
  const { main } = await import(pathToFileURL(`${dir}/index.js`).href)
  await main(process.argv)
}
