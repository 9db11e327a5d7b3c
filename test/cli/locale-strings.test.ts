// The templates' strings: English has every key the templates use, each is used, and every
// translation the project ships (content/i18n/<code>/strings.json) has every key, with the same
// `{placeholders}`, and a translation of each navbar and footer text of the site config; the
// French pages it ships are translations.
import { readdirSync, readFileSync } from 'node:fs'
import { join, relative } from 'node:path'
import { fileURLToPath } from 'node:url'
import test from 'ava'
import { resolveConfig } from '../../cli/config/config.ts'
import { parseSource } from '../../cli/content/front-matter.ts'
import { SITE_TEXT_PREFIX, siteTexts } from '../../model/site-texts.ts'
import { en } from '../../templates/i18n/en.ts'

const root = fileURLToPath(new URL('../../', import.meta.url))
const i18n = join(root, 'content/i18n')
const placeholders = (text: string) => [...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort()

/** Every `t('key'` in the templates' sources. */
const usedKeys = () => {
  const dir = join(root, 'templates')
  const keys = new Set<string>()
  for (const entry of readdirSync(dir, { recursive: true, withFileTypes: true }))
    if (entry.isFile() && /\.tsx?$/.test(entry.name))
      for (const m of readFileSync(join(entry.parentPath, entry.name), 'utf8').matchAll(
        /\bt\('([\w.]+)'/g,
      ))
        keys.add(m[1])
  return keys
}

test('English has every key the templates ask for, and each of its keys is used', (t) => {
  const used = usedKeys()
  t.deepEqual(
    [...used].filter((key) => !(key in en)),
    [],
  )
  t.deepEqual(
    Object.keys(en).filter((key) => !used.has(key)),
    [],
  )
})

test('each shipped translation has every key, no other, with the same placeholders', async (t) => {
  const codes = readdirSync(i18n)
  t.true(codes.includes('fr'), 'the site ships French')
  const { site } = await resolveConfig({ root })
  const texts = siteTexts(site)
  t.true(texts.includes('API reference') && texts.includes(site.footer.copyright))
  for (const code of codes) {
    const strings: Record<string, string> = JSON.parse(
      readFileSync(join(i18n, code, 'strings.json'), 'utf8'),
    )
    const siteKeys = texts.map((text) => `${SITE_TEXT_PREFIX}${text}`)
    t.deepEqual(Object.keys(strings).sort(), [...Object.keys(en), ...siteKeys].sort(), code)
    // A name (Keyward) may read the same; most of the navbar and footer may not.
    const same = siteKeys.filter((key) => strings[key] === key.slice(SITE_TEXT_PREFIX.length))
    t.true(same.length <= 2, `${code}: ${same.join(', ')} left in English`)
    for (const [key, english] of Object.entries(en)) {
      t.deepEqual(placeholders(strings[key]), placeholders(english), `${code}: ${key}`)
      t.not(strings[key], english, `${code}: ${key} is translated`)
    }
  }
})

test("the project's French pages are real translations of existing pages", async (t) => {
  const docsDir = join(root, 'content/docs')
  const frDir = join(i18n, 'fr/docs')
  const pages = readdirSync(frDir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.md'))
    .map((entry) => relative(frDir, join(entry.parentPath, entry.name)))
  t.true(pages.includes('hosting/install/index.md'))
  for (const page of pages) {
    const french = parseSource(page, readFileSync(join(frDir, page), 'utf8')).result
    const english = parseSource(page, readFileSync(join(docsDir, page), 'utf8')).result
    t.truthy(french.frontMatter.title, page)
    t.truthy(french.frontMatter.description, page)
    t.not(french.frontMatter.title, english.frontMatter.title, `${page}: title translated`)
    t.not(french.frontMatter.description, english.frontMatter.description, page)
    // Prose differs from the English line by line (code blocks and commands may not).
    const prose = (body: string) =>
      body.split('\n').filter((line) => /^[A-Z][a-z]+ [a-z]+/.test(line))
    const shared = prose(french.body).filter((line) => prose(english.body).includes(line))
    t.deepEqual(shared, [], `${page}: lines left in English`)
    t.notRegex(french.body, /\b(TODO|TBD|FIXME|XXX)\b|lorem ipsum|à traduire|à venir/i, page)
  }
  // The landing page: the site's title, tagline and every guide in French.
  const { default: config } = await import('../../content/site.config.ts')
  const fr = config.locales?.items.find((item) => item.code === 'fr')
  t.truthy(fr?.title)
  t.truthy(fr?.tagline)
  t.deepEqual(
    Object.keys(fr?.guides ?? {}).sort(),
    (config.guides ?? []).map((guide) => guide.id).sort(),
  )
})
