// The markdown-it parser renders every page of the real site, and the synthetic benchmark
// corpus, exactly as remark-parse did: the same HTML, headings, ids, sections, links with their
// lines, and messages.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, relative } from 'node:path'
import test from 'ava'
import { generateCorpus } from '../../../bench/generate-corpus.ts'
import { listMarkdownFiles } from '../../../cli/content.ts'
import { bodyOf } from '../../../cli/front-matter.ts'
import { renderBoth } from '../../helpers/parser-parity.ts'

const root = new URL('../../../', import.meta.url).pathname
const docs = join(root, 'content/docs')

for (const file of listMarkdownFiles(docs)) {
  test(`same output from both parsers: ${relative(docs, file)}`, (t) => {
    const { markdownIt, remark } = renderBoth(file, bodyOf(readFileSync(file, 'utf8')))
    t.deepEqual(markdownIt, remark)
  })
}

test('same output from both parsers over 150 pages of the synthetic corpus', (t) => {
  const out = mkdtempSync(join(tmpdir(), 'keyward-parity-'))
  try {
    generateCorpus({ pages: 150, out })
    for (const file of listMarkdownFiles(join(out, 'content/docs'))) {
      const { markdownIt, remark } = renderBoth(file, bodyOf(readFileSync(file, 'utf8')))
      t.deepEqual(markdownIt, remark, relative(out, file))
    }
  } finally {
    rmSync(out, { recursive: true, force: true })
  }
})
