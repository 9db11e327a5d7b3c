// `npm run package:deb`: builds dist/keyward_<version>_<arch>.deb from this checkout: the
// server's sources and production packages under /usr/lib/keyward, `keyward-api` on the PATH,
// the configuration, the systemd unit and the maintainer scripts of this folder. Packages
// with native parts (sharp, the embedded PostgreSQL) make it architecture-specific.
import { execFileSync, spawnSync } from 'node:child_process'
import {
  chmodSync,
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'

const here = fileURLToPath(new URL('.', import.meta.url))
const repo = resolve(here, '../..')

/** What the installed server needs of the checkout (the docs toolchain stays out). */
export const SHIPPED = [
  'api',
  'plugins',
  'bin/api.js',
  'bin/cache-dir.js',
  'bin/register-ts.js',
  'tsconfig.json',
  'package.json',
  'package-lock.json',
  'LICENSE',
  'README.md',
]

const DEB_ARCH: Record<string, string> = { x64: 'amd64', arm64: 'arm64' }

/**
 * Folders of the production packages (`node_modules/...`), outermost only: a package's own
 * nested node_modules comes with it.
 */
export const productionPackages = (): string[] => {
  const lock = JSON.parse(readFileSync(join(repo, 'package-lock.json'), 'utf8')) as {
    packages: Record<string, { dev?: boolean }>
  }
  const wanted = Object.entries(lock.packages)
    .filter(([path, entry]) => path.startsWith('node_modules/') && !entry.dev)
    .map(([path]) => path)
    // Optional packages for other platforms are in the lockfile but not installed.
    .filter((path) => existsSync(join(repo, path)))
    .sort()
  return wanted.filter(
    (path, index) => !wanted.slice(0, index).some((outer) => path.startsWith(`${outer}/`)),
  )
}

/** Hard links where the stage shares the checkout's file system (nothing writes to them), else a copy. */
const copyTree = (from: string, to: string) => {
  mkdirSync(dirname(to), { recursive: true })
  const linked = spawnSync('cp', ['-a', '--link', from, to], { stdio: 'ignore' })
  if (linked.status !== 0) cpSync(from, to, { recursive: true, verbatimSymlinks: true })
}

export interface BuiltPackage {
  file: string
  version: string
  arch: string
}

export interface BuildDebOptions {
  /** @default <repository>/dist */
  outDir?: string
  /** `none` builds faster (tests); releases use gzip. @default 'gzip' */
  compression?: 'gzip' | 'none'
}

export const buildDeb = (options: BuildDebOptions = {}): BuiltPackage => {
  const { version } = JSON.parse(readFileSync(join(repo, 'package.json'), 'utf8'))
  const arch = DEB_ARCH[process.arch]
  if (!arch) throw new Error(`no Debian architecture name for ${process.arch}`)
  const outDir = resolve(options.outDir ?? join(repo, 'dist'))
  // Beside the output: on the same file system as the checkout, packages are hard-linked.
  mkdirSync(outDir, { recursive: true })
  const stage = mkdtempSync(join(outDir, '.stage-'))
  try {
    const root = join(stage, 'root')
    const lib = join(root, 'usr/lib/keyward')
    for (const path of SHIPPED) cpSync(join(repo, path), join(lib, path), { recursive: true })
    // The installed packages the lockfile does not mark as development ones.
    for (const path of productionPackages()) copyTree(join(repo, path), join(lib, path))

    mkdirSync(join(root, 'usr/bin'), { recursive: true })
    cpSync(join(here, 'keyward-api'), join(root, 'usr/bin/keyward-api'))
    chmodSync(join(root, 'usr/bin/keyward-api'), 0o755)
    mkdirSync(join(root, 'etc/keyward'), { recursive: true })
    cpSync(join(here, 'keyward.config.json'), join(root, 'etc/keyward/keyward.config.json'))
    chmodSync(join(root, 'etc/keyward/keyward.config.json'), 0o640)
    mkdirSync(join(root, 'lib/systemd/system'), { recursive: true })
    cpSync(join(here, 'keyward.service'), join(root, 'lib/systemd/system/keyward.service'))
    mkdirSync(join(root, 'usr/share/doc/keyward'), { recursive: true })
    symlinkSync('../../../lib/keyward/LICENSE', join(root, 'usr/share/doc/keyward/copyright'))

    const control = join(root, 'DEBIAN')
    mkdirSync(control)
    const size = execFileSync('du', ['-sk', '--apparent-size', root], { encoding: 'utf8' }).split(
      '\t',
    )[0]
    writeFileSync(
      join(control, 'control'),
      readFileSync(join(here, 'control.in'), 'utf8')
        .replace('@VERSION@', version)
        .replace('@ARCH@', arch)
        .replace('@SIZE@', size),
    )
    writeFileSync(join(control, 'conffiles'), '/etc/keyward/keyward.config.json\n')
    for (const script of ['postinst', 'prerm', 'postrm']) {
      cpSync(join(here, script), join(control, script))
      chmodSync(join(control, script), 0o755)
    }

    mkdirSync(outDir, { recursive: true })
    const file = join(outDir, `keyward_${version}_${arch}.deb`)
    const compression = options.compression === 'none' ? ['-Znone'] : ['-Zgzip', '-z6']
    execFileSync('dpkg-deb', ['--root-owner-group', ...compression, '--build', root, file], {
      stdio: ['ignore', 'ignore', 'inherit'],
    })
    return { file, version, arch }
  } finally {
    rmSync(stage, { recursive: true, force: true })
  }
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const built = buildDeb({ outDir: process.argv[2] })
  console.log(`wrote ${built.file}`)
}
