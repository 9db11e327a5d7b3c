import { createProcessor, renderMarkdown } from '/work/main/cli/markdown.ts'
const p = createProcessor({ resolveLink: (h) => ({ url: h.replace(/\.md/, '/'), internal: !h.startsWith('http') }), resolveImage: (h) => ({ url: h, internal: false }) })
const src = `# Hello

Some *text* at 10:30 and Note:this. See [x](./other.md#a).

:::tip Use a **strong** passphrase
Body here.
:::

::::tabs{groupId="os"}
:::tab[Debian]
apt
:::
:::tab[Ubuntu]
snap
:::
::::

:::quote{author="Ada" source="Notes"}
Quote
:::

::video{src="https://www.youtube.com/watch?v=aqz-KE-bpKQ" title="Big"}

::providerCard{icon="/img/g.svg" title="Google" href="./google.md"}

## Heading {#custom}

\`\`\`bash title="Start" {2}
echo "a"
npm start --port 3
# c
\`\`\`

| a | b |
|---|---|
| 1 | 2 |

- [x] done

Footnote[^1].

[^1]: The note.

:::foo
x
:::
`
const r = renderMarkdown(p, '/x/a.md', src)
console.log(r.html)
console.log(r.file.data, r.file.messages.map(m => `${m.line}: ${m.reason} ${m.fatal}`))
const big = (src.replace(':::foo\nx\n:::', '') + '\n' + 'Lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do `eiusmod` tempor [incididunt](./a.md) ut labore et dolore magna aliqua. '.repeat(8) + '\n\n').repeat(8)
console.log(big.length)
let t = performance.now()
for (let i = 0; i < 200; i++) renderMarkdown(p, '/x/a.md', big)
console.log('ms/page', (performance.now() - t) / 200)
import { VFile } from 'vfile'
import { unified } from 'unified'
import remarkParse from 'remark-parse'
import remarkGfm from 'remark-gfm'
import remarkDirective from 'remark-directive'
const time = (name: string, fn: () => void) => { const t = performance.now(); for (let i = 0; i < 100; i++) fn(); console.log(name, ((performance.now() - t) / 100).toFixed(2)) }
const plain = unified().use(remarkParse).freeze()
const gfm = unified().use(remarkParse).use(remarkGfm).freeze()
const dir = unified().use(remarkParse).use(remarkGfm).use(remarkDirective).freeze()
time('parse plain', () => plain.parse(big))
time('parse gfm', () => gfm.parse(big))
time('parse gfm+dir', () => dir.parse(big))
time('full parse', () => p.parse(new VFile({ value: big })))
const tree = p.parse(new VFile({ value: big }))
time('run', () => p.runSync(structuredClone(tree), new VFile({ value: big, path: '/x/a.md' })))
