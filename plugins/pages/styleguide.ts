// The built files of passbolt's own web application (npm `passbolt-styleguide`, AGPL): the API
// app that renders the administration pages the extension hands over to the server, its
// stylesheets, fonts, images and translations. Files are looked up by kind inside the package,
// never outside it, and only with the extensions each kind may have.
import { existsSync, readFileSync, statSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join, resolve, sep } from 'node:path'
import { lookup } from 'mrmime'

const root = dirname(createRequire(import.meta.url).resolve('passbolt-styleguide/package.json'))

/** The package's version, appended to the page's script and stylesheet URLs to bust caches. */
export const STYLEGUIDE_VERSION: string = JSON.parse(
  readFileSync(join(root, 'package.json'), 'utf8'),
).version

/** The themes the styleguide ships stylesheets for (the account settings' theme names). */
export const THEMES = ['default', 'midgar', 'solarized_light', 'solarized_dark'] as const

const KINDS = {
  /** The API apps' bundles (`api-app.js`, `api-vendors.js`, ...). */
  js: { dir: 'build/js/dist', pattern: /^api-[a-z-]+\.js$/ },
  /** `<theme>/api_main.min.css` and the other API stylesheets. */
  css: { dir: 'build/css/themes', pattern: /^[a-z_]+\/api_[a-z]+\.min\.css$/ },
  fonts: { dir: 'src/fonts', pattern: /^[\w.-]+\.(ttf|otf|woff2?)$/ },
  img: { dir: 'src/img', pattern: /^[\w-]+(\/[\w.-]+)*\.(svg|png|gif|jpg|ico)$/ },
  /** `<locale>/common.json` */
  locales: { dir: 'src/locales', pattern: /^[a-z]{2}-[A-Z]{2}\/[a-z]+\.json$/ },
} as const

export type AssetKind = keyof typeof KINDS

export interface Asset {
  body: Buffer
  type: string
}

/** The file of that kind at `path` (relative, `/`-separated), or undefined. */
export const readAsset = (kind: AssetKind, path: string): Asset | undefined => {
  const { dir, pattern } = KINDS[kind]
  if (!pattern.test(path) || path.split('/').some((part) => part.startsWith('.'))) return undefined
  const base = resolve(root, dir)
  const file = resolve(base, path)
  if (!file.startsWith(base + sep) || !existsSync(file) || !statSync(file).isFile())
    return undefined
  const type = lookup(file) ?? (file.endsWith('.ico') ? 'image/x-icon' : 'application/octet-stream')
  const text = /^(text\/|application\/(json|javascript))|image\/svg/.test(type)
  return { body: readFileSync(file), type: text ? `${type}; charset=utf-8` : type }
}
