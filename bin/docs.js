#!/usr/bin/env node
// Entry point of the docs CLI. The CLI and its two build workers (render, search) are bundled
// with esbuild on each start (about 0.1 s; packages stay external) and run without a TypeScript
// loader, which spares each thread compiling the sources and the loader's own thread (the
// site's config files are bundled too, by cli/config.ts). `import.meta.url` keeps
// naming each source file, so paths the code derives from it (templates, markdown steps) hold.
// The dev server's builder worker runs the sources through tsx: it restarts with fresh
// templates after an edit.
import { mkdirSync, readFileSync, rmSync } from 'node:fs'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { build, stop } from 'esbuild'

// React's development build is several times slower at server rendering.
process.env.NODE_ENV ??= 'production'
const root = fileURLToPath(new URL('..', import.meta.url))
const outdir = `${root}node_modules/.cache/keyward/docs-${process.pid}`
const entries = ['index', 'render-worker', 'search-indexer']

/** Keeps `import.meta.url` of every bundled source as its own file's address. */
const keepModuleUrls = {
  name: 'keep-module-urls',
  setup(esbuild) {
    esbuild.onLoad({ filter: /\.tsx?$/ }, (args) => ({
      contents: readFileSync(args.path, 'utf8').replaceAll(
        'import.meta.url',
        JSON.stringify(pathToFileURL(args.path).href),
      ),
      loader: args.path.endsWith('.tsx') ? 'tsx' : 'ts',
    }))
  },
}

mkdirSync(outdir, { recursive: true })
process.on('exit', () => rmSync(outdir, { recursive: true, force: true }))
await build({
  entryPoints: entries.map((name) => `${root}cli/${name}.ts`),
  outdir,
  bundle: true,
  splitting: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  packages: 'external',
  jsx: 'automatic',
  logLevel: 'error',
  plugins: [keepModuleUrls],
})
await stop()
// Workers started from bundled code run the bundled entry of the same name (cli/ts-worker.ts).
process.env.KEYWARD_DOCS_BUNDLE = outdir
const { main } = await import(pathToFileURL(`${outdir}/index.js`).href)
await main(process.argv)
