// Raw HTML in Markdown: harmless tags are kept as elements; anything else is left out with a
// warning on its line, never silently; comments never reach the page.
import test from 'ava'
import { refusedHtml } from '../../../cli/markdown/remark-raw-html.ts'
import { render } from '../../helpers/markdown.ts'

const warnings = (file: ReturnType<typeof render>['file']) =>
  file.messages.map(
    (m) => `${m.line}: ${m.fatal ? 'error' : 'warning'}: ${m.reason.split(' (')[0]}`,
  )

test('kbd, sup, sub and br inline, details with summary around Markdown, and tables are kept', (t) => {
  const { html, file } = render(
    [
      'Press <kbd>Ctrl</kbd>+<kbd>K</kbd>; H<sub>2</sub>O, x<sup>2</sup>.<br>Next line.',
      '',
      '<details open>',
      '<summary>More</summary>',
      '',
      'Inside **Markdown**.',
      '',
      '</details>',
      '',
      '<table>',
      '<tr><th align="left">A</th><td colspan="2">1 &lt; 2</td></tr>',
      '</table>',
      '',
      '<!-- a note to other writers -->',
    ].join('\n'),
  )
  t.deepEqual(warnings(file), [])
  t.is(
    html,
    [
      '<p>Press <kbd>Ctrl</kbd>+<kbd>K</kbd>; H<sub>2</sub>O, x<sup>2</sup>.<br>Next line.</p>',
      '<details open>',
      '<summary>More</summary>',
      '<p>Inside <strong>Markdown</strong>.</p>',
      '</details>',
      '<table>',
      '<tbody><tr><th align="left">A</th><td colspan="2">1 &#x3C; 2</td></tr>',
      '</tbody></table>',
      '',
    ].join('\n'),
  )
})

test('scripts, styles, event handlers, other tags and attributes are left out with a warning on their line', (t) => {
  const { html, file } = render(
    [
      'A <span onclick="steal()">span</span> and <img src=x onerror=alert(1)>.',
      '',
      '<script>alert(1)</script>',
      '',
      '<table><tr><td style="color:red">cell</td></tr></table>',
      '',
      '<KBD ONCLICK=x>k</KBD> <iframe src="https://example.com"></iframe>',
      '',
      '<!doctype html>',
    ].join('\n'),
  )
  t.deepEqual(warnings(file), [
    '1: warning: raw HTML left out: <span> is not kept',
    '1: warning: raw HTML left out: <img> is not kept',
    '3: warning: raw HTML left out: <script> is not kept',
    '5: warning: raw HTML left out: the style attribute on <td> is not kept',
    '7: warning: raw HTML left out: the ONCLICK attribute on <kbd> is not kept',
    '7: warning: raw HTML left out: <iframe> is not kept',
    '9: warning: raw HTML left out: markup that is not a plain tag is not kept',
  ])
  t.is(html, '<p>A span and .</p>\n<p>k </p>')
  t.false(/script|onclick|onerror|style=|iframe/i.test(html))
})

test('the tag check sees through tricks: split names, slashes between attributes, unclosed comments', (t) => {
  t.is(refusedHtml('<kbd>'), undefined)
  t.is(refusedHtml('a < b <br/>'), undefined)
  t.is(refusedHtml('<details open>'), undefined)
  t.is(refusedHtml('<td colspan=\'2\' rowspan=3 align="left">'), undefined)
  t.is(refusedHtml('<scr<!-- -->ipt>'), 'markup that is not a plain tag')
  t.is(refusedHtml('<td/onclick=x>'), 'markup that is not a plain tag')
  t.is(refusedHtml('<!-- open'), 'markup that is not a plain tag')
  t.is(refusedHtml('<sup title="a>b">'), 'the title attribute on <sup>')
  t.is(refusedHtml('</style>'), '<style>')
  t.is(refusedHtml('<?php echo 1 ?>'), 'markup that is not a plain tag')
})
