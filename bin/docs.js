#!/usr/bin/env node
// Entry point of the docs CLI.
// React's development build is several times slower at server rendering.
process.env.NODE_ENV ??= 'production'
await import('./register-ts.js')
const { main } = await import('../cli/index.ts')
await main(process.argv)
