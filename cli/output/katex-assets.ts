// KaTeX's stylesheet and fonts under hashed names, for the pages that hold math (the Markdown
// pipeline typesets it at build time, so no KaTeX script reaches the browser). Only the woff2
// fonts are kept: every browser that runs the site's scripts reads them.
import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { hashOf } from '../cache/hash.ts'

const FONT_SOURCE = /src:url\(fonts\/([\w-]+\.woff2)\) format\("woff2"\)[^;}]*/g

/** The stylesheet's path below the base URL, and every file to write there. */
export const katexAssets = (): { css: string; files: Map<string, Uint8Array | string> } => {
  const dist = join(dirname(createRequire(import.meta.url).resolve('katex/package.json')), 'dist')
  const files = new Map<string, Uint8Array | string>()
  const css = readFileSync(join(dist, 'katex.min.css'), 'utf8').replace(
    FONT_SOURCE,
    (_, font: string) => {
      const content = readFileSync(join(dist, 'fonts', font))
      const out = `assets/fonts/${font.replace(/\.woff2$/, '')}.${hashOf(content)}.woff2`
      files.set(out, content)
      // The stylesheet sits in assets/css/: its fonts are one folder up.
      return `src:url(../fonts/${out.slice('assets/fonts/'.length)}) format("woff2")`
    },
  )
  const path = `assets/css/katex.${hashOf(css)}.css`
  files.set(path, css)
  return { css: path, files }
}
