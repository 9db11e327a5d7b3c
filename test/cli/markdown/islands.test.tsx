// The island markup the Markdown pipeline writes is exactly what the island's component
// renders, so hydration adopts it (the browser tests show it then works).
import test from 'ava'
import { renderToStaticMarkup } from 'react-dom/server'
import { CopyButton } from '../../../templates/CopyButton.tsx'
import { TabList } from '../../../templates/TabList.tsx'
import { render } from '../../helpers/markdown.ts'

const ENTITIES: Record<string, string> = {
  quot: '"',
  '#x22': '"',
  amp: '&',
  '#x26': '&',
  lt: '<',
  gt: '>',
}
const decode = (value: string) =>
  value.replace(/&(quot|#x22|amp|#x26|lt|gt);/g, (_, e) => ENTITIES[e])

/** Tags with sorted, decoded attributes, and text: markup compared regardless of serialiser. */
const normalise = (html: string) =>
  html.replace(/<(\/?)([a-z]+)([^>]*)>/g, (_, close, tag, attrs: string) => {
    const list = [...attrs.matchAll(/([\w-]+)(?:="([^"]*)")?/g)].map(
      ([, name, value]) => `${name}=${decode(value ?? '')}`,
    )
    return `<${close}${tag} ${list.sort().join(' ')}>`
  })

/** Each island of the rendered Markdown: its name, props and inner HTML. */
const islands = (html: string) =>
  [...html.matchAll(/<div data-island="(\w+)" data-props="([^"]*)">(.*?)<\/div><!--end-->/g)].map(
    ([, name, props, inner]) => ({ name, props: JSON.parse(decode(props)), inner }),
  )

test('tab lists and copy buttons: the pipeline writes what the components render', (t) => {
  const { html } = render(
    [
      '::::tabs{groupId="os"}',
      ':::tab[Debian `12`]',
      'One.',
      ':::',
      ':::tab[Red Hat]',
      'Two.',
      ':::',
      '::::',
      '',
      '```bash',
      'echo hi',
      '```',
    ].join('\n'),
  )
  // Mark where each island ends (an island is one element, so its closing tag follows it).
  const marked = html
    .replace(/(<div data-island="tabs"[^>]*>.*?<\/div>)<\/div>/g, '$1</div><!--end-->')
    .replace(
      /(<div data-island="copy"[^>]*><button[^>]*>Copy<\/button>)<\/div>/g,
      '$1</div><!--end-->',
    )
  const found = islands(marked)
  t.deepEqual(
    found.map((island) => island.name),
    ['tabs', 'copy'],
  )
  const [tabs, copy] = found
  t.deepEqual(tabs.props, {
    groupId: 'os',
    tabs: [
      { id: 'tabs-0-0', value: 'debian-12', label: 'Debian <code>12</code>' },
      { id: 'tabs-0-1', value: 'red-hat', label: 'Red Hat' },
    ],
  })
  t.is(normalise(tabs.inner), normalise(renderToStaticMarkup(<TabList {...tabs.props} />)))
  t.is(normalise(copy.inner), normalise(renderToStaticMarkup(<CopyButton />)))
})
