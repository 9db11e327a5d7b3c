// The Markdown syntax's tricky parts, checked on the HTML the whole pipeline writes.
import test from 'ava'
import { render } from '../../helpers/markdown.ts'

const html = (markdown: string) => render(markdown).html

test('containers nest when the outer one has more colons; attributes take #id and .class', (t) => {
  t.is(
    html('::::note[Outer]{#o .a .b}\n:::tip\nInner\n:::\nAfter\n::::\n'),
    [
      '<aside class="admonition admonition--note" role="note"><div class="admonition__title">Outer</div><div class="admonition__body">',
      '<aside class="admonition admonition--tip" role="note"><div class="admonition__title">Tip</div><div class="admonition__body">',
      '<p>Inner</p>',
      '</div></aside>',
      '<p>After</p>',
      '</div></aside>',
    ].join('\n'),
  )
})

test('a closing fence closes the outermost container it fits, even inside fenced code', (t) => {
  t.is(
    html(':::note\n```md\n:::\n```\n:::\n'),
    [
      '<aside class="admonition admonition--note" role="note"><div class="admonition__title">Note</div><div class="admonition__body">',
      '<div class="code-block" data-language="md"><div class="code-block__body"><pre tabindex="0"><code class="hljs language-md"><span class="line"></span></code></pre><div data-island="copy" data-props="{}"><button type="button" class="copy-button" aria-label="Copy code to clipboard" title="Copy">Copy</button></div></div></div>',
      '</div></aside>',
      '<div class="code-block"><div class="code-block__body"><pre tabindex="0"><code class="hljs"><span class="line">:::</span></code></pre><div data-island="copy" data-props="{}"><button type="button" class="copy-button" aria-label="Copy code to clipboard" title="Copy">Copy</button></div></div></div>',
    ].join('\n'),
  )
})

test('directive attributes: quoted, unquoted, and character references decoded', (t) => {
  t.is(
    html(':::quote{author="A &amp; B" source=Notes}\nQ\n:::\n'),
    '<figure class="quote"><blockquote>\n<p>Q</p>\n</blockquote><figcaption>— A &#x26; B, <cite>Notes</cite></figcaption></figure>',
  )
})

test('a directive line with broken attributes is a paragraph', (t) => {
  t.is(html(':::note{bad"}\nx\n:::\n'), '<p>:::note{bad"}\nx\n:::</p>')
})

test('tables keep their column alignment and fill short rows', (t) => {
  t.is(
    html('| L | C | R | N |\n|:--|:-:|--:|---|\n| 1 | 2 | 3 |\n'),
    [
      '<table>',
      '<thead>',
      '<tr>',
      '<th align="left">L</th>',
      '<th align="center">C</th>',
      '<th align="right">R</th>',
      '<th>N</th>',
      '</tr>',
      '</thead>',
      '<tbody>',
      '<tr>',
      '<td align="left">1</td>',
      '<td align="center">2</td>',
      '<td align="right">3</td>',
      '<td></td>',
      '</tr>',
      '</tbody>',
      '</table>',
    ].join('\n'),
  )
})

test('footnote calls match their definition whatever the case, and come back once each', (t) => {
  t.is(
    html('A[^n] and b[^N].\n\n[^n]: The *note*.\n'),
    [
      '<p>A<sup><a href="#user-content-fn-n" id="user-content-fnref-n" data-footnote-ref aria-describedby="footnote-label">1</a></sup> and b<sup><a href="#user-content-fn-n" id="user-content-fnref-n-2" data-footnote-ref aria-describedby="footnote-label">1</a></sup>.</p>',
      '<section data-footnotes class="footnotes"><h2 class="sr-only" id="footnote-label">Footnotes</h2>',
      '<ol>',
      '<li id="user-content-fn-n">',
      '<p>The <em>note</em>. <a href="#user-content-fnref-n" data-footnote-backref="" aria-label="Back to reference 1" class="data-footnote-backref">↩</a> <a href="#user-content-fnref-n-2" data-footnote-backref="" aria-label="Back to reference 1-2" class="data-footnote-backref">↩<sup>2</sup></a></p>',
      '</li>',
      '</ol>',
      '</section>',
    ].join('\n'),
  )
})

test('task list items: [x] and [ ] become checkboxes, anything else stays text', (t) => {
  t.is(
    html('- [x] done\n- [ ] todo\n- [y] no\n- [x]\n'),
    [
      '<ul class="contains-task-list">',
      '<li class="task-list-item"><input type="checkbox" checked disabled> done</li>',
      '<li class="task-list-item"><input type="checkbox" disabled> todo</li>',
      '<li>[y] no</li>',
      '<li>[x]</li>',
      '</ul>',
    ].join('\n'),
  )
})

test('autolink literals as in GFM: http(s), www. and e-mail; not ftp: or bare domains', (t) => {
  t.is(
    html(
      'See https://keyward.example/a, www.example.com and admin@keyward.example; not ftp://x.example or example.com.\n',
    ),
    '<p>See <a href="https://keyward.example/a">https://keyward.example/a</a>, <a href="http://www.example.com">www.example.com</a> and <a href="mailto:admin@keyward.example">admin@keyward.example</a>; not ftp://x.example or example.com.</p>',
  )
})

test('raw HTML is parsed as HTML and left out of the page', (t) => {
  t.is(html('Text <span>inline</span>\n\n<div>\nblock\n</div>\n'), '<p>Text inline</p>')
})

test('reference links and images use their definition, which is resolved and checked once', (t) => {
  const { html, file } = render(
    'A [ref], a [text][Ref] and ![logo][ref].\n\n[ref]: ./b.md "Title"\n',
  )
  t.is(
    html,
    '<p>A <a href="/docs/b/" title="Title">ref</a>, a <a href="/docs/b/" title="Title">text</a> and <img src="/docs/b/" alt="logo" title="Title">.</p>',
  )
  t.deepEqual(file.data.links, [{ url: '/docs/b/', line: 3 }])
})

test('hard breaks: two trailing spaces or a backslash; a plain newline is soft', (t) => {
  t.is(html('one  \ntwo\\\nthree\nfour\n'), '<p>one<br>\ntwo<br>\nthree\nfour</p>')
})

test('headings take a {#custom-id}; setext headings are headings', (t) => {
  t.is(
    html('## Custom title {#custom-id}\n\nSetext\n------\n'),
    [
      '<h2 id="custom-id" class="anchor">Custom title<a class="hash-link" href="#custom-id" aria-label="Direct link to Custom title">#</a></h2>',
      '<h2 id="setext" class="anchor">Setext<a class="hash-link" href="#setext" aria-label="Direct link to Setext">#</a></h2>',
    ].join('\n'),
  )
})

test('strikethrough with one or two tildes; three are text', (t) => {
  t.is(
    html('a ~one~ b ~~two~~ c ~~~three~~~\n'),
    '<p>a <del>one</del> b <del>two</del> c ~~~three~~~</p>',
  )
})

test('text directives stay as written, label and attributes included, and autolinks see them whole', (t) => {
  t.is(
    html('At 10:30, :abbr[**HTML**]{title="x"} and :a[b](c), mailto:foo@bar.example.\n'),
    '<p>At 10:30, :abbr[**HTML**]{title="x"} and :a[b](c), <a href="mailto:foo@bar.example">mailto:foo@bar.example</a>.</p>',
  )
})

test('links after line breaks, multi-line code spans and titles are recorded on their own line', (t) => {
  const { file } = render(
    'one `code\nspan` [a](./a.md "multi\nline title")\n![i](./i.png\n"t") [b](./b.md)\nthree [c](./c.md)\n',
  )
  t.deepEqual(file.data.links, [
    { url: '/docs/a/', line: 2 },
    { url: '/docs/b/', line: 5 },
    { url: '/docs/c/', line: 6 },
  ])
})

// Text directives become text again as the parser closes them, before the alt is computed.
test('an image alt keeps colons as written', (t) => {
  t.is(
    html('![Meeting at 10:30, Note:this](./a.png)\n'),
    '<p><img src="./a.png" alt="Meeting at 10:30, Note:this" loading="lazy" decoding="async"></p>',
  )
})
