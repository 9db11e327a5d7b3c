#!/usr/bin/env node
// `npm start`: the API server (embedded PostgreSQL unless DATABASE_URL is set) and the docs dev
// server side by side; Ctrl+C stops both.
import { spawn } from 'node:child_process'
import { fileURLToPath } from 'node:url'

const here = (file) => fileURLToPath(new URL(file, import.meta.url))
const children = [
  spawn(process.execPath, [here('./api.js'), 'start'], { stdio: 'inherit' }),
  spawn(process.execPath, [here('./docs.js'), 'serve'], { stdio: 'inherit' }),
]
let stopping = false
const stop = (signal) => {
  if (stopping) return
  stopping = true
  for (const child of children) if (child.exitCode === null) child.kill(signal)
}
for (const child of children)
  child.once('exit', (code) => {
    // One side failing takes the other down, so nothing is left half-running.
    if (!stopping && code !== 0) process.exitCode = code ?? 1
    stop('SIGTERM')
  })
process.once('SIGINT', () => stop('SIGINT'))
process.once('SIGTERM', () => stop('SIGTERM'))
