#!/usr/bin/env node
// Entry point of the API server's CLI. The TypeScript sources are bundled with esbuild into one
// module on each start (about 0.1 s; dependencies stay external) and loaded without a
// TypeScript loader: this keeps the long-running server free of tsx's loader thread (about
// 40 MB of resident memory). The bundle is written to a writable cache folder (bin/cache-dir.js);
// with none, the sources run through tsx instead.
import { rmSync } from 'node:fs'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { cacheFolder } from './cache-dir.js'

process.env.NODE_ENV ??= 'production'
const root = fileURLToPath(new URL('..', import.meta.url))
const outdir = cacheFolder(root)
if (!outdir) {
  // tsx keeps compiled files in the temporary folder, which is not writable either.
  process.env.TSX_DISABLE_CACHE = '1'
  await import('./register-ts.js')
  const { main } = await import(pathToFileURL(`${root}api/cli.ts`).href)
  await main(process.argv)
  process.exit()
}
const { build, stop } = await import('esbuild')
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
