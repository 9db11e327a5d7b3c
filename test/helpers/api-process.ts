// Runs the `api` CLI (bin/api.js) as its own process, as an administrator would: for the
// commands and start-up paths that only exist outside a test's in-process server.
import { type ChildProcess, execFile, spawn } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import type { ExecutionContext } from 'ava'

export const API_BIN = fileURLToPath(new URL('../../bin/api.js', import.meta.url))

export interface ApiRun {
  code: number
  stdout: string
  stderr: string
}

/** Runs one `api` command to its end. */
export const runApi = (
  args: string[],
  env: Record<string, string>,
  options: { cwd?: string; bin?: string; command?: string; timeoutMs?: number } = {},
): Promise<ApiRun> =>
  new Promise((resolve) => {
    execFile(
      options.command ?? process.execPath,
      options.command ? args : [options.bin ?? API_BIN, ...args],
      {
        env: { ...process.env, ...env },
        cwd: options.cwd,
        timeout: options.timeoutMs ?? 90_000,
        maxBuffer: 64 * 1024 * 1024,
      },
      (error, stdout, stderr) =>
        resolve({
          code: error ? (typeof error.code === 'number' ? error.code : 1) : 0,
          stdout,
          stderr,
        }),
    )
  })

export interface StartedApi {
  child: ChildProcess
  url: string
  output: () => string
  stop(): Promise<number | null>
}

/** Starts `api start …` and waits for its "listening on" line; stopped when the test ends. */
export const startApiProcess = async (
  t: ExecutionContext,
  args: string[],
  env: Record<string, string>,
  options: { cwd?: string; bin?: string; command?: string } = {},
): Promise<StartedApi> => {
  // `command` is an executable of its own (an installed `keyward-api`); `bin` a script for node.
  const [file, ...prefix] = options.command
    ? [options.command]
    : [process.execPath, options.bin ?? API_BIN]
  const child = spawn(file, [...prefix, 'start', ...args], {
    env: { ...process.env, ...env },
    cwd: options.cwd,
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let output = ''
  child.stdout?.on('data', (chunk) => {
    output += chunk
  })
  child.stderr?.on('data', (chunk) => {
    output += chunk
  })
  const exited = new Promise<number | null>((resolve) =>
    child.once('exit', (code) => resolve(code)),
  )
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM')
    return exited
  }
  t.teardown(() => stop().then(() => {}))
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no start within 90 s:\n${output}`)), 90_000)
    const look = () => {
      const match = /listening on (\S+?)\/? \(/.exec(output)
      if (match) {
        clearTimeout(timer)
        resolve(match[1])
      }
    }
    child.stdout?.on('data', look)
    void exited.then((code) => {
      clearTimeout(timer)
      reject(new Error(`api start exited (${code}):\n${output}`))
    })
  })
  return { child, url, output: () => output, stop }
}
