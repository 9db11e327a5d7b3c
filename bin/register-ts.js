// Lets Node load this repository's TypeScript (and config files outside an ESM package)
// through tsx, in both module systems, so no build step is needed. The repository's
// tsconfig.json applies wherever the process runs (its JSX settings compile the templates even
// when the site being built lives in another folder).
import { fileURLToPath } from 'node:url'
import { register as registerCommonJs } from 'tsx/cjs/api'
import { register as registerEsm } from 'tsx/esm/api'

const tsconfig = fileURLToPath(new URL('../tsconfig.json', import.meta.url))
process.env.TSX_TSCONFIG_PATH ??= tsconfig

registerEsm({ tsconfig })
registerCommonJs()
