// ava runs two test files at a time on this project's two-core machines. The files below take
// minutes each (the official extension driven through whole scenarios, the hosting guide's
// commands in a sandbox, the fuzzing of every route); started first, they run beside the many
// short files instead of leaving one of them alone at the end of the run.
const SLOW_FIRST = [
  'test/ops/hosting-commands.test.ts',
  'test/extension/community.test.ts',
  'test/extension/encrypted-metadata.test.ts',
  'test/extension/official-extension.test.ts',
  'test/extension/metadata-folders.test.ts',
  'test/extension/metadata-existing.test.ts',
  'test/passbolt-import/extension.test.ts',
  'test/extension/screenshots.test.ts',
  'test/robustness/fuzz.test.ts',
  'test/robustness/authorization-matrix.test.ts',
  'test/browser/project-site.test.ts',
]

const rank = (file) => {
  const index = SLOW_FIRST.findIndex((slow) => file.endsWith(slow))
  return index === -1 ? SLOW_FIRST.length : index
}

export default {
  files: ['test/**/*.test.ts', 'test/**/*.test.tsx'],
  extensions: { ts: 'module', tsx: 'module' },
  nodeArguments: ['--import=tsx'],
  timeout: '120s',
  workerThreads: false,
  sortTestFiles: (a, b) => rank(a) - rank(b) || a.localeCompare(b, 'en', { numeric: true }),
}
