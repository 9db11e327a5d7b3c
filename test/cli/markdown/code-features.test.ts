// Code fence features: line numbers from the meta string, and `[!code …]` markers that leave the
// code and mark their line, in each language's comment syntax.
import test from 'ava'
import { parseCodeMeta, takeLineMarks } from '../../../cli/markdown/rehype-code.ts'

test('showLineNumbers alone starts at 1, with =N at N; a word that only contains it does not count', (t) => {
  t.is(parseCodeMeta('showLineNumbers').lineNumbersFrom, 1)
  t.is(parseCodeMeta('title="x" showLineNumbers=12 {2}').lineNumbersFrom, 12)
  t.is(parseCodeMeta('noshowLineNumbers').lineNumbersFrom, undefined)
  t.is(parseCodeMeta('title="showLineNumbers"').lineNumbersFrom, undefined)
})

test('markers in every comment syntax are removed and mark their line', (t) => {
  const { code, marks } = takeLineMarks(
    [
      'a // [!code ++]',
      'b # [!code --]',
      '<c/> <!-- [!code focus] -->',
      'd /* [!code highlight] */',
      'e -- [!code ++]',
      'f ; [!code --]',
      'g',
    ].join('\n'),
  )
  t.is(code, ['a', 'b', '<c/>', 'd', 'e', 'f', 'g'].join('\n'))
  t.deepEqual(
    [...marks],
    [
      [1, 'added'],
      [2, 'removed'],
      [3, 'focused'],
      [4, 'highlighted'],
      [5, 'added'],
      [6, 'removed'],
    ],
  )
})

test('a marker not at the end of its line, or of an unknown kind, stays in the code', (t) => {
  const source = 'x // [!code ++] y\nz // [!code wobble]'
  const { code, marks } = takeLineMarks(source)
  t.is(code, source)
  t.is(marks.size, 0)
})
