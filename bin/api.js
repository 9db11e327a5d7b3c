#!/usr/bin/env node
// Entry point of the API server's CLI. The TypeScript sources are bundled with esbuild into one
// module on each start (about 0.1 s; dependencies stay external) and loaded without a
// TypeScript loader: this keeps the long-running server free of tsx's loader thread (about
// 40 MB of resident memory).
import { mkdirSync, rmSync } from 'node:fs'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { build, stop } from 'esbuild'

process.env.NODE_ENV ??= 'production'
const root = fileURLToPath(new URL('..', import.meta.url))
const outdir = `${root}node_modules/.cache/keyward`
mkdirSync(outdir, { recursive: true })
const outfile = `${outdir}/api-${process.pid}.mjs`
await build({
  entryPoints: [`${root}api/cli.ts`],
  outfile,
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  packages: 'external',
  sourcemap: 'inline',
  logLevel: 'error',
})
await stop()
// Stack traces in the log then point at the TypeScript sources.
process.setSourceMapsEnabled(true)
let main
try {
  ;({ main } = await import(pathToFileURL(outfile).href))
} finally {
  rmSync(outfile, { force: true })
}
await main(process.argv)
