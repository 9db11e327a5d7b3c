// Writes a deterministic synthetic docs project (default 2,000 pages) for the build benchmarks:
// pages of 600-1500 words with headings, code, tables, admonitions and cross links.
// Usage: node bin/run.js bench/generate-corpus.ts [--pages 2000] [--out bench/corpus]
import { mkdirSync, rmSync, writeFileSync } from 'node:fs'
import { join, posix, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'

const WORDS = (
  'server key user group folder resource secret share permission token session passphrase ' +
  'administrator policy backup database install configure update upgrade migrate email ' +
  'encryption metadata fingerprint client browser extension recovery account role directory ' +
  'ldap scim totp yubikey jwt gpgauth certificate https proxy firewall container cluster ' +
  'the a an of to and in for with on by from that this is are be can must should will when ' +
  'each every your their its which while after before during without between through'
).split(' ')

const LANGS = ['bash', 'json', 'typescript', 'yaml', 'sql', 'ini']

/** mulberry32: small, fast, deterministic. */
const random = (seed: number) => () => {
  seed = (seed + 0x6d2b79f5) | 0
  let t = Math.imul(seed ^ (seed >>> 15), 1 | seed)
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296
}

export interface CorpusOptions {
  pages: number
  out: string
  seed?: number
}

interface Page {
  path: string
  headings: string[]
}

export const generateCorpus = ({
  pages,
  out,
  seed = 42,
}: CorpusOptions): { pages: number; words: number } => {
  const rand = random(seed)
  const pick = <T>(list: T[]) => list[Math.floor(rand() * list.length)]
  const int = (min: number, max: number) => min + Math.floor(rand() * (max - min + 1))
  const words = (n: number) => Array.from({ length: n }, () => pick(WORDS)).join(' ')
  const sentence = () => {
    const s = words(int(8, 18))
    return `${s[0].toUpperCase()}${s.slice(1)}.`
  }
  const guides = ['user', 'admin', 'hosting', 'contribute', 'development']
  const perFolder = 20
  const plan: Page[] = []
  for (let i = 0; plan.length < pages; i++) {
    const guide = guides[i % guides.length]
    const folder = Math.floor(i / guides.length / perFolder)
    const n = Math.floor(i / guides.length) % perFolder
    const path =
      n === 0 ? `${guide}/topic-${folder}/index.md` : `${guide}/topic-${folder}/page-${n}.md`
    const headings = Array.from({ length: int(4, 8) }, (_, h) => `Section ${h + 1} ${words(2)}`)
    plan.push({ path, headings })
  }
  rmSync(out, { recursive: true, force: true })
  const docs = join(out, 'content', 'docs')
  let totalWords = 0
  plan.forEach((page, index) => {
    const target = int(600, 1500)
    const parts: string[] = [
      '---',
      `title: ${pick(WORDS)} ${pick(WORDS)} page ${index}`,
      `description: ${sentence()}`,
      `sidebar_position: ${index}`,
      '---',
      '',
    ]
    let count = 0
    const link = () => {
      const other = plan[int(0, plan.length - 1)]
      const rel = posix.relative(posix.dirname(page.path), other.path)
      const anchor = rand() < 0.3 ? `#${other.headings[0].toLowerCase().replace(/\s+/g, '-')}` : ''
      return `[${words(2)}](${rel.startsWith('.') ? rel : `./${rel}`}${anchor})`
    }
    for (const heading of page.headings) {
      if (count >= target) break
      parts.push(`## ${heading}`, '')
      for (let p = int(2, 4); p > 0; p--) {
        const text = Array.from({ length: int(3, 6) }, sentence).join(' ')
        parts.push(`${text} See ${link()} and \`${pick(WORDS)}\` for **${words(2)}**.`, '')
        count += text.split(' ').length + 6
      }
      const block = rand()
      if (block < 0.35) {
        const lang = pick(LANGS)
        parts.push(
          `\`\`\`${lang} title="example.${lang}"`,
          ...Array.from(
            { length: int(3, 10) },
            () => `${pick(WORDS)} = "${words(3)}" # ${words(2)}`,
          ),
          '```',
          '',
        )
      } else if (block < 0.6) {
        parts.push(
          '| Option | Default | Meaning |',
          '|---|---|---|',
          ...Array.from(
            { length: int(3, 6) },
            () => `| \`${pick(WORDS)}\` | ${int(1, 99)} | ${words(6)} |`,
          ),
          '',
        )
      } else if (block < 0.8) {
        parts.push(
          `:::${pick(['note', 'tip', 'info', 'warning', 'danger'])}`,
          sentence(),
          ':::',
          '',
        )
      } else {
        parts.push(...Array.from({ length: int(3, 6) }, () => `- ${sentence()}`), '')
      }
      if (rand() < 0.4) parts.push(`### Details ${words(2)}`, '', sentence(), '')
    }
    totalWords += count
    const file = join(docs, page.path)
    mkdirSync(join(file, '..'), { recursive: true })
    writeFileSync(file, parts.join('\n'))
  })
  for (const guide of guides)
    writeFileSync(
      join(docs, guide, 'index.md'),
      `---\ntitle: ${guide} guide\n---\n\n${sentence()}\n`,
    )
  // The config helpers by name, so the corpus builds wherever it is written.
  writeFileSync(
    join(out, 'content', 'site.config.ts'),
    `import { defineConfig } from 'keyward/docs'\n\nexport default defineConfig({\n  title: 'Synthetic', url: 'https://bench.example', logo: { src: '/docs/logo.svg', alt: 'logo' },\n  navbar: { items: [] }, footer: { copyright: 'bench' },\n  guides: ${JSON.stringify(guides.map((id) => ({ id, label: `${id} guide` })))},\n})\n`,
  )
  writeFileSync(
    join(out, 'content', 'sidebars.ts'),
    `import { defineSidebars } from 'keyward/docs'\n\nexport default defineSidebars({\n${guides.map((g) => `  ${g}: ['${g}/index', { type: 'autogenerated', dirName: '${g}' }],`).join('\n')}\n})\n`,
  )
  mkdirSync(join(out, 'content', 'static'), { recursive: true })
  writeFileSync(
    join(out, 'content', 'static', 'logo.svg'),
    '<svg xmlns="http://www.w3.org/2000/svg"/>',
  )
  return { pages: plan.length + guides.length, words: totalWords }
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const { values } = parseArgs({
    options: {
      pages: { type: 'string', default: '2000' },
      out: { type: 'string', default: 'bench/corpus' },
    },
  })
  const stats = generateCorpus({ pages: Number(values.pages), out: resolve(values.out!) })
  console.log(`wrote ${stats.pages} pages (${stats.words} words) to ${values.out}`)
}
