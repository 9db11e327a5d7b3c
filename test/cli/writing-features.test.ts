// One small site built once: what the writing features leave in the output (math's stylesheet
// on the pages with math only, and the files it needs; images' sizes and alt warnings; edit
// links and link-preview metadata).
import { existsSync, readdirSync } from 'node:fs'
import { join } from 'node:path'
import test from 'ava'
import sharp from 'sharp'
import { type BuildResult, build } from '../../cli/build.ts'
import { baseConfig, Cleanups, createSite, doc, type TestSite } from '../helpers/site.ts'

const cleanups = new Cleanups()
let site: TestSite
let result: BuildResult

test.before(async () => {
  const png = await sharp({
    create: { width: 64, height: 48, channels: 3, background: '#2060d0' },
  })
    .png()
    .toBuffer()
  site = createSite(
    cleanups,
    {
      'guide/index.md': doc(
        { title: 'Guide', keywords: ['setup', 'mfa'], image: '/docs/img/guide.png' },
        'No formula here, only $5.\n',
      ),
      'guide/math.md': doc(
        { title: 'Math', description: 'Formulas.' },
        'Energy: $E = mc^2$.\n\n$$\n\\sum_{k=1}^n k\n$$\n',
      ),
      'guide/images.md': doc(
        { title: 'Images' },
        '![A blue square](./square.png)\n\n![](./diagram.svg)\n\n[![Linked](./square.png)](https://example.com)\n',
      ),
      'guide/square.png': '',
      'guide/diagram.svg':
        '<svg xmlns="http://www.w3.org/2000/svg" width="120" height="80"><rect width="120" height="80"/></svg>',
    },
    {
      config: {
        ...baseConfig,
        repositoryUrl: 'https://git.example/team/site/',
        editPath: 'edit/main/content/docs/{path}',
        image: '/docs/img/card.png',
      },
    },
  )
  site.write('content/docs/guide/square.png', png as unknown as string)
  result = await build({ root: site.root, outDir: site.out, workers: 1, cacheDir: false })
})
test.after.always(() => cleanups.run())

test('math: KaTeX typesets at build time and its stylesheet is linked only where math is', (t) => {
  t.deepEqual(result.errors, [])
  const math = site.read('docs/guide/math/index.html')
  const plain = site.read('docs/guide/index.html')
  const link = /<link rel="stylesheet" href="(\/docs\/assets\/css\/katex\.[0-9a-f]{8}\.css)"/.exec(
    math,
  )
  t.truthy(link, 'math page links KaTeX')
  t.true(math.includes('<annotation encoding="application/x-tex">E = mc^2</annotation>'))
  t.false(plain.includes('data-feature="math"'), 'a page without math links no KaTeX stylesheet')
  t.false(plain.includes('class="katex"'), 'a lone dollar sign is not math')
  t.false(math.includes('katex.min.js') || /<script[^>]*katex/.test(math), 'no KaTeX script')
  t.deepEqual(JSON.parse(site.read('docs/guide/math/page-data.json')).features, ['math'])
  // Every font the stylesheet names is written, woff2 only.
  const css = site.read(link![1].slice(1))
  const fonts = [...css.matchAll(/url\(\.\.\/fonts\/([^)]+)\)/g)].map((m) => m[1])
  t.true(fonts.length >= 19)
  for (const font of fonts) t.true(existsSync(join(site.out, 'docs/assets/fonts', font)), font)
  t.false(css.includes('.ttf') || css.includes('.woff)'))
  t.true(readdirSync(join(site.out, 'docs/assets/fonts')).every((f) => f.endsWith('.woff2')))
})

test('images: width and height come from the file; an image without alt text is a warning on its line', (t) => {
  const html = site.read('docs/guide/images/index.html')
  t.regex(
    html,
    /<img src="\/docs\/assets\/img\/square\.[0-9a-f]{8}\.png" alt="A blue square" loading="lazy" decoding="async" width="64" height="48">/,
  )
  t.regex(
    html,
    /<img src="[^"]*diagram\.[0-9a-f]{8}\.svg" alt="" loading="lazy" decoding="async" width="120" height="80">/,
  )
  t.deepEqual(
    result.warnings.filter((w) => w.message.includes('alt text')).map((w) => [w.file, w.line]),
    [['content/docs/guide/images.md', 7]],
  )
})

test('every doc links to its source for editing; front matter feeds link previews, with the site image by default', (t) => {
  const guide = site.read('docs/guide/index.html')
  t.true(
    guide.includes(
      '<a class="doc-meta__edit" href="https://git.example/team/site/edit/main/content/docs/guide/index.md">Edit this page</a>',
    ),
  )
  t.true(guide.includes('<meta name="keywords" content="setup, mfa"/>'))
  t.true(
    guide.includes('<meta property="og:image" content="https://docs.test/docs/img/guide.png"/>'),
  )
  t.true(guide.includes('<meta name="twitter:card" content="summary_large_image"/>'))
  const math = site.read('docs/guide/math/index.html')
  t.true(math.includes('<meta property="og:description" content="Formulas."/>'))
  t.true(math.includes('<meta property="og:image" content="https://docs.test/docs/img/card.png"/>'))
  t.true(math.includes('<meta property="og:url" content="https://docs.test/docs/guide/math/"/>'))
  t.false(math.includes('name="keywords"'))
})
