// Runs a Dockerfile's steps without a container engine (none can run here): each stage's file
// system is a folder, absolute paths in the instructions map into it, RUN runs in the mapped
// working folder with the stage's environment. Enough for this repository's Dockerfile
// (FROM … AS, WORKDIR, COPY [--from], RUN, ENV, USER, VOLUME, EXPOSE, HEALTHCHECK, CMD); the
// base image's own files (node, the shell) are this machine's.
import { spawn } from 'node:child_process'
import { cpSync, mkdirSync, readFileSync, statSync } from 'node:fs'
import { join } from 'node:path'

export interface Stage {
  name?: string
  root: string
  workdir: string
  env: Record<string, string>
  user?: string
  volumes: string[]
  cmd?: string[]
  healthcheck?: string[]
}

/** Instructions with their continuation lines joined and comments dropped. */
export const instructions = (text: string) =>
  text
    .replace(/\\\n/g, ' ')
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line && !line.startsWith('#'))
    .map((line) => {
      const [keyword, ...rest] = line.split(/\s+/)
      return { keyword: keyword.toUpperCase(), args: rest.join(' ') }
    })

const parseEnv = (args: string) => {
  const env: Record<string, string> = {}
  for (const match of args.matchAll(/(\w+)=("[^"]*"|\S+)/g))
    env[match[1]] = match[2].replace(/^"|"$/g, '')
  return env
}

export interface RunOptions {
  /** The build context (a clean copy of the repository). */
  context: string
  /** Where the stages' file systems go. */
  workspace: string
  /** Runs a RUN step's shell command; the default runs it with sh. */
  run?: (command: string, cwd: string, env: Record<string, string>) => Promise<void>
}

/** Runs a shell command without blocking the event loop (an `npm ci` takes minutes). */
const shell = (command: string, cwd: string, env: Record<string, string>) =>
  new Promise<void>((resolve, reject) => {
    const child = spawn('sh', ['-c', command], {
      cwd,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'inherit', 'inherit'],
    })
    child.once('error', reject)
    child.once('exit', (code) =>
      code === 0 ? resolve() : reject(new Error(`RUN ${command} exited with ${code}`)),
    )
  })

/** Executes every build step; returns the stages, the last one being the image. */
export const buildDockerfile = async (
  dockerfile: string,
  options: RunOptions,
): Promise<Stage[]> => {
  const stages: Stage[] = []
  let stage: Stage | undefined
  const mapped = (path: string) => join(stage?.root ?? '', path)
  const run = options.run ?? shell
  for (const { keyword, args } of instructions(readFileSync(dockerfile, 'utf8'))) {
    if (keyword === 'FROM') {
      const name = /\bAS\s+(\S+)/i.exec(args)?.[1]
      stage = {
        name,
        root: join(options.workspace, `stage-${stages.length}`),
        workdir: '/',
        env: {},
        volumes: [],
      }
      mkdirSync(stage.root, { recursive: true })
      stages.push(stage)
      continue
    }
    if (!stage) throw new Error(`${keyword} before FROM`)
    const current = stage
    switch (keyword) {
      case 'WORKDIR':
        current.workdir = args.startsWith('/') ? args : join(current.workdir, args)
        mkdirSync(mapped(current.workdir), { recursive: true })
        break
      case 'ENV':
        Object.assign(current.env, parseEnv(args))
        break
      case 'COPY': {
        const from = /--from=(\S+)/.exec(args)?.[1]
        const parts = args.replace(/--\S+/g, '').trim().split(/\s+/)
        const target = parts.pop() as string
        const source = from ? stages.find((s) => s.name === from)?.root : options.context
        if (!source) throw new Error(`COPY --from=${from}: no such stage`)
        const dest = mapped(target.startsWith('/') ? target : join(current.workdir, target))
        for (const part of parts) {
          const src = join(source, part)
          const toFolder = target.endsWith('/') || parts.length > 1
          if (statSync(src).isDirectory() && !toFolder) cpSync(src, dest, { recursive: true })
          else {
            mkdirSync(toFolder ? dest : join(dest, '..'), { recursive: true })
            cpSync(src, toFolder ? join(dest, part.split('/').pop() as string) : dest, {
              recursive: true,
            })
          }
        }
        break
      }
      case 'RUN':
        // Commands that make users and system folders belong to the image, not to this
        // machine: the folders are made in the stage, user and ownership changes left out.
        if (/\b(useradd|groupadd)\b/.test(args)) {
          for (const match of args.matchAll(/mkdir -p ((?:\/\S+\s*)+)/g))
            for (const path of match[1].trim().split(/\s+/))
              mkdirSync(mapped(path), { recursive: true })
          break
        }
        await run(args, mapped(current.workdir), current.env)
        break
      case 'USER':
        current.user = args
        break
      case 'VOLUME':
        current.volumes.push(...(JSON.parse(args) as string[]))
        break
      case 'CMD':
        current.cmd = JSON.parse(args)
        break
      case 'HEALTHCHECK':
        current.healthcheck = JSON.parse(args.slice(args.indexOf('CMD') + 3).trim())
        break
      case 'EXPOSE':
        break
      default:
        throw new Error(`unsupported Dockerfile instruction ${keyword}`)
    }
  }
  return stages
}

/** An image's command and environment with its absolute paths mapped into its stage folder. */
export const mappedCommand = (stage: Stage, argv: string[]) =>
  argv.map((arg) =>
    arg.startsWith('/') && !arg.startsWith('/usr/bin') ? join(stage.root, arg) : arg,
  )

export const mappedEnv = (stage: Stage) =>
  Object.fromEntries(
    Object.entries(stage.env).map(([key, value]) => [
      key,
      value.startsWith('/') ? join(stage.root, value) : value,
    ]),
  )
