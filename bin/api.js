#!/usr/bin/env node
// Entry point of the API server's CLI.
process.env.NODE_ENV ??= 'production'
await import('./register-ts.js')
const { main } = await import('../api/cli.ts')
await main(process.argv)
