#!/usr/bin/env node
// Runs a TypeScript script of this repository (benchmarks, tools).
import { resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import './register-ts.js'

const script = process.argv[2]
if (!script) {
  console.error('usage: node bin/run.js SCRIPT.ts [args...]')
  process.exit(1)
}
process.argv.splice(1, 1)
await import(pathToFileURL(resolve(script)).href)
