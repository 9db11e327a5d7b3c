#!/usr/bin/env node
// Entry point of the docs CLI: loads TypeScript sources through tsx, so no build step is needed.
import { register } from 'tsx/esm/api'

// React's development build is several times slower at server rendering.
process.env.NODE_ENV ??= 'production'

register()
const { main } = await import('../cli/index.ts')
await main(process.argv)
