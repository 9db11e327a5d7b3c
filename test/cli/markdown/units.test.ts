// Small pure helpers of the Markdown steps.
import test from 'ava'
import { normalizeDirectiveTitles } from '../../../cli/markdown/directive-titles.ts'
import { parseCodeMeta } from '../../../cli/markdown/rehype-code.ts'
import { videoEmbed } from '../../../cli/markdown/remark-video.ts'

test('container titles become labels, outside fenced code only', (t) => {
  const input = [
    ':::tip Be [careful]',
    '```',
    ':::note In code',
    '```',
    '::::tabs{groupId="x"}',
    ':::note[Kept]',
  ].join('\n')
  t.is(
    normalizeDirectiveTitles(input),
    [
      ':::tip[Be \\[careful\\]]',
      '```',
      ':::note In code',
      '```',
      '::::tabs{groupId="x"}',
      ':::note[Kept]',
    ].join('\n'),
  )
})

test('a longer fence is closed only by a fence at least as long', (t) => {
  const input = ['````md', '```', ':::note Inside', '````', ':::note Outside'].join('\n')
  t.is(
    normalizeDirectiveTitles(input),
    ['````md', '```', ':::note Inside', '````', ':::note[Outside]'].join('\n'),
  )
})

test('code meta: title in any quoting and line ranges', (t) => {
  t.deepEqual(parseCodeMeta('title="a b" {1,3-4}'), {
    title: 'a b',
    highlightLines: new Set([1, 3, 4]),
  })
  t.deepEqual(parseCodeMeta("title='x'"), { title: 'x', highlightLines: new Set() })
  t.deepEqual(parseCodeMeta('title=plain'), { title: 'plain', highlightLines: new Set() })
  t.deepEqual(parseCodeMeta(undefined), { title: undefined, highlightLines: new Set() })
})

test('video addresses: YouTube, Vimeo, https mp4; anything else is refused', (t) => {
  t.deepEqual(videoEmbed('https://www.youtube.com/watch?v=aqz-KE-bpKQ'), {
    kind: 'iframe',
    src: 'https://www.youtube-nocookie.com/embed/aqz-KE-bpKQ',
  })
  t.deepEqual(
    videoEmbed('https://www.youtube.com/embed/aqz-KE-bpKQ')?.src,
    'https://www.youtube-nocookie.com/embed/aqz-KE-bpKQ',
  )
  t.deepEqual(
    videoEmbed('https://vimeo.com/76979871')?.src,
    'https://player.vimeo.com/video/76979871',
  )
  t.deepEqual(videoEmbed('/docs/media/a.mp4'), { kind: 'video', src: '/docs/media/a.mp4' })
  t.is(videoEmbed('http://example.com/a.mp4'), undefined)
  t.is(videoEmbed('https://example.com/page'), undefined)
  t.is(videoEmbed('https://www.youtube.com/watch?v=<script>'), undefined)
  t.is(videoEmbed('javascript:alert(1)'), undefined)
})
