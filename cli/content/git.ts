// Last-update times of files from git history, read with one `git log` for the whole folder.
import { execFile } from 'node:child_process'
import { resolve } from 'node:path'
import { promisify } from 'node:util'

const run = promisify(execFile)

/** Maps absolute file paths to their last commit time (seconds); empty outside a git work tree. */
export const readLastUpdated = async (dir: string): Promise<Map<string, number>> => {
  const times = new Map<string, number>()
  try {
    const { stdout: top } = await run('git', ['rev-parse', '--show-toplevel'], { cwd: dir })
    const root = top.trim()
    const { stdout } = await run(
      'git',
      ['log', '--format=%x00%ct', '--name-only', '--no-renames', '--', '.'],
      {
        cwd: dir,
        maxBuffer: 256 * 1024 * 1024,
      },
    )
    let time = 0
    for (const line of stdout.split('\n')) {
      if (line.startsWith('\0')) time = Number(line.slice(1))
      else if (line) {
        const file = resolve(root, line)
        // git log lists newest first, so the first time seen is the last update.
        if (!times.has(file)) times.set(file, time)
      }
    }
  } catch {
    // Not a git work tree, or git missing: pages show no last-update time.
  }
  return times
}
