// Static assets: the client script bundle (esbuild) and the stylesheet under hashed names,
// and the files of content/static/ copied as they are.
import { createHash } from 'node:crypto'
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { dirname, join, relative, sep } from 'node:path'
import { fileURLToPath } from 'node:url'
import { build } from 'esbuild'
import type { SiteAssets } from '../templates/model.ts'

export const TEMPLATES_DIR = fileURLToPath(new URL('../templates/', import.meta.url))

const hashOf = (content: string | Uint8Array) =>
  createHash('sha256').update(content).digest('hex').slice(0, 8)

const bundle = async (entry: string): Promise<string> => {
  const result = await build({
    entryPoints: [join(TEMPLATES_DIR, entry)],
    bundle: true,
    format: 'esm',
    minify: true,
    target: 'es2022',
    write: false,
    logLevel: 'silent',
  })
  return result.outputFiles[0].text
}

/** Writes hashed CSS and JS below `outBase` (the folder served at the base URL). */
export const writeAssets = async (
  outBase: string,
  baseUrl: string,
  dev: boolean,
): Promise<SiteAssets> => {
  const write = (name: string, ext: string, content: string) => {
    const file = `assets/${ext}/${name}.${hashOf(content)}.${ext}`
    mkdirSync(join(outBase, 'assets', ext), { recursive: true })
    writeFileSync(join(outBase, file), content)
    return `${baseUrl}${file}`
  }
  const [js, devReload] = await Promise.all([
    bundle('client/main.ts'),
    dev ? bundle('client/dev-reload.ts') : undefined,
  ])
  return {
    css: write('styles', 'css', readFileSync(join(TEMPLATES_DIR, 'styles.css'), 'utf8')),
    js: write('main', 'js', js),
    devReload: devReload === undefined ? undefined : write('dev-reload', 'js', devReload),
  }
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
