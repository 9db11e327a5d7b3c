// An esbuild plugin for the CLI's bundle (bin/docs.js) and the modules it bundles at run time
// (cli/config/module-bundle.ts): each TypeScript source keeps its own file's address as
// `import.meta.url`, so paths the code derives from it (templates, Markdown steps) hold. Plain
// JavaScript, so bin/docs.js loads it without a TypeScript loader and never rewrites it.
import { readFileSync } from 'node:fs'
import { pathToFileURL } from 'node:url'

export const keepModuleUrls = {
  name: 'keep-module-urls',
  setup(esbuild) {
    esbuild.onLoad({ filter: /\.[cm]?tsx?$/ }, (args) => ({
      contents: readFileSync(args.path, 'utf8').replaceAll(
        'import.meta.url',
        JSON.stringify(pathToFileURL(args.path).href),
      ),
      loader: args.path.endsWith('x') ? 'tsx' : 'ts',
    }))
  },
}
