// No source, test or bench file names a folder that exists only on one machine: a temporary
// folder comes from os.tmpdir() and mkdtemp, a user's folder from os.homedir(), and the rest is
// relative to the repository. A literal such as '/tmp/lead/dump.json' passes wherever it was
// written and fails on every fresh machine.
import { execFileSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import test from 'ava'

const ROOT = join(import.meta.dirname, '..')
const CHECKED = ['api', 'bench', 'bin', 'cli', 'content', 'plugins', 'templates', 'test']
const SOURCE = /\.(?:[cm]?[jt]sx?|json|sh)$/

// A string literal that starts with a machine-local absolute folder or the home shorthand.
const MACHINE_PATH = /(['"`])(?:\/(?:tmp|var\/tmp|root|home|work|Users)(?=[/'"`$])|~\/)/

/** The `file:line: text` of every machine-local path literal in `text`. */
const machinePaths = (file: string, text: string): string[] =>
  text.split('\n').flatMap((line, index) =>
    // A comment may describe such a folder; only code uses one.
    MACHINE_PATH.test(line) && !/^\s*(?:\/\/|\*)/.test(line)
      ? [`${file}:${index + 1}: ${line.trim()}`]
      : [],
  )

test('the checker finds the literals that break a fresh machine, and only those', (t) => {
  const found = machinePaths(
    'sample.ts',
    [
      "writeFileSync('/tmp/lead/nul-logs.json', data)",
      'const home = `/root/.cache/keyward`',
      'spawn("ls", ["~/projects"])',
      "const dir = mkdtempSync(join(tmpdir(), 'keyward-'))",
      "const unit = '/var/lib/keyward'",
      '// a comment may say /tmp/whatever',
      "const url = 'http://host/tmp/x'",
    ].join('\n'),
  )
  t.deepEqual(
    found.map((line) => line.split(':')[1]),
    ['1', '2', '3'],
  )
})

test('no tracked source, test or bench file names a machine-local folder', (t) => {
  const files = execFileSync('git', ['ls-files', '--', ...CHECKED], { cwd: ROOT, encoding: 'utf8' })
    .split('\n')
    // This file's own samples are the literals it refuses.
    .filter((file) => SOURCE.test(file) && file !== 'test/repository-paths.test.ts')
  t.true(files.length > 100, 'the repository listing found the sources')
  const found = files.flatMap((file) => machinePaths(file, readFileSync(join(ROOT, file), 'utf8')))
  t.deepEqual(found, [], 'use os.tmpdir() with mkdtemp, os.homedir(), or a repository path')
})
