// Reads each locale's template strings from content/i18n/<code>/strings.json into the site
// config: a JSON object of strings whose keys are the English ones (templates/i18n/en.ts), and
// `site:<text>` for the navbar's and footer's words of the site config (model/site-texts.ts).
import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import type { SiteConfig } from '../../model/site-config.ts'
import { SITE_TEXT_PREFIX, siteTexts } from '../../model/site-texts.ts'
import { en } from '../../templates/i18n/en.ts'
import type { Diagnostic } from '../errors.ts'

/** The path of a locale's strings file below the content folder. */
export const stringsPath = (code: string) => `i18n/${code}/strings.json`

/** Fills `strings` of every locale that has a file; problems name the file and the key. */
export const loadLocaleStrings = (
  contentDir: string,
  site: SiteConfig,
  problems: Diagnostic[],
): void => {
  const texts = new Set(siteTexts(site).map((text) => `${SITE_TEXT_PREFIX}${text}`))
  for (const item of site.locales.items) {
    const file = join(contentDir, stringsPath(item.code))
    if (!existsSync(file)) continue
    const display = `content/${stringsPath(item.code)}`
    let parsed: unknown
    try {
      parsed = JSON.parse(readFileSync(file, 'utf8'))
    } catch (error) {
      problems.push({ file: display, message: `not JSON: ${(error as Error).message}` })
      continue
    }
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
      problems.push({ file: display, message: 'must be an object of strings by key' })
      continue
    }
    const strings: Record<string, string> = {}
    for (const [key, value] of Object.entries(parsed)) {
      if (key.startsWith(SITE_TEXT_PREFIX) && !texts.has(key))
        problems.push({
          file: display,
          message: `"${key}" names no navbar or footer text of the site config`,
        })
      else if (!(key in en) && !texts.has(key))
        problems.push({ file: display, message: `unknown key "${key}"` })
      else if (typeof value !== 'string')
        problems.push({ file: display, message: `"${key}" must be a string` })
      else strings[key] = value
    }
    item.strings = { ...item.strings, ...strings }
  }
}
