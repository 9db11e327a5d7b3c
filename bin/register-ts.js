// Lets Node load this repository's TypeScript (and config files outside an ESM package)
// through tsx, in both module systems, so no build step is needed.
import { register as registerCommonJs } from 'tsx/cjs/api'
import { register as registerEsm } from 'tsx/esm/api'

registerEsm()
registerCommonJs()
