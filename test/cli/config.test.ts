// Site configuration: validated at load, with one error per bad field naming the file.
import test from 'ava'
import { resolveConfig } from '../../cli/config/config.ts'
import { BuildFailedError, DocsError } from '../../cli/errors.ts'
import { baseConfig, createSite } from '../helpers/site.ts'

test('defaults fill what the config leaves out', async (t) => {
  const site = createSite(t, {})
  const { site: config } = await resolveConfig({ root: site.root })
  t.is(config.baseUrl, '/docs/')
  t.is(config.colorMode.defaultMode, 'dark')
  t.deepEqual(config.versions, [{ name: 'current', label: 'Next', path: '' }])
  t.deepEqual(config.locales, { default: 'en', items: [{ code: 'en', label: 'English' }] })
})

test('bad values are errors naming the file and each field', async (t) => {
  const site = createSite(
    t,
    {},
    {
      config: {
        ...baseConfig,
        url: 'not a url',
        baseUrl: 'docs',
        colorMode: { defaultMode: 'blue' },
        extra: 1,
      },
    },
  )
  const error = await t.throwsAsync(resolveConfig({ root: site.root }), {
    instanceOf: BuildFailedError,
  })
  t.deepEqual(error.message.split('\n').sort(), [
    'content/site.config.ts: Unrecognized key: "extra"',
    'content/site.config.ts: baseUrl: must start and end with "/", e.g. "/docs/"',
    'content/site.config.ts: colorMode.defaultMode: Invalid option: expected one of "light"|"dark"',
    'content/site.config.ts: url: Invalid URL',
  ])
})

test('a config that does not load is one error naming the file', async (t) => {
  const site = createSite(t, {}, { files: { 'content/site.config.ts': 'export default {\n' } })
  const error = await t.throwsAsync(resolveConfig({ root: site.root }), { instanceOf: DocsError })
  t.regex(error.message, /^content\/site\.config\.ts: /)
  t.false(error.message.includes('\n'))
})

test('a bad sidebars file names the file and the item', async (t) => {
  const site = createSite(t, {}, { sidebars: { guide: [{ type: 'category', items: [] }] } })
  const error = await t.throwsAsync(resolveConfig({ root: site.root }), {
    instanceOf: BuildFailedError,
  })
  t.regex(error.message, /^content\/sidebars\.ts: guide\.0: /)
})

test('a folder without content/ is a clear error', async (t) => {
  await t.throwsAsync(resolveConfig({ root: '/nonexistent-keyward' }), {
    message: '/nonexistent-keyward: no content/ folder here',
  })
})
