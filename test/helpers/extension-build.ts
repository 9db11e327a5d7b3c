// Builds the official passbolt browser extension (Chrome MV3) from the npm registry into a
// cache outside the checkout, keyed by version, and reuses a complete build. Needs npm and
// network access to the registry only the first time.
import { execFile } from 'node:child_process'
import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs'
import { homedir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'

const run = promisify(execFile)

/** The client versions the end-to-end test is written against. */
export const EXTENSION_VERSION = '5.11.1'
export const STYLEGUIDE_VERSION = '5.11.4'

/**
 * The published package points `secrets-passbolt` at a git host and lets `react-list` float to
 * a version that breaks the build; npm's `overrides` cannot change a direct dependency
 * (EOVERRIDE), so the direct specs are edited instead.
 */
const DEPENDENCY_EDITS = {
  dependencies: {
    'passbolt-styleguide': STYLEGUIDE_VERSION,
    'secrets-passbolt': 'npm:secrets.js-grempe@2.0.0',
  },
  overrides: { 'react-list': '0.8.18' },
}

/** The webpack configurations whose output makes up the unpacked MV3 extension. */
const WEBPACK_CONFIGS = [
  'webpack.service-worker.config.js',
  'webpack-offscreens.config.js',
  'webpack-content-scripts.config.js',
  'webpack-content-scripts.browser-integration.config.js',
  'webpack-content-scripts.public-website-sign-in.config.js',
  'webpack-data.config.js',
  'webpack-data.download.config.js',
  'webpack-data.in-form-call-to-action.config.js',
  'webpack-data.in-form-menu.config.js',
]

/** Where builds are kept: `$KEYWARD_CACHE_DIR`, else `$XDG_CACHE_HOME/keyward`, else ~/.cache. */
export const cacheRoot = () =>
  process.env.KEYWARD_CACHE_DIR ??
  join(process.env.XDG_CACHE_HOME ?? join(homedir(), '.cache'), 'keyward')

export const extensionCacheDir = () =>
  join(cacheRoot(), `passbolt-extension-${EXTENSION_VERSION}-styleguide-${STYLEGUIDE_VERSION}`)

/** The unpacked extension Chromium loads, inside the cache. */
export const extensionDir = () => join(extensionCacheDir(), 'package', 'build', 'all')

const MARKER = 'complete.json'
/** Bumped when what the cache holds changes, so an older cache is rebuilt. */
const LAYOUT = 2

/** The client sources with their dependencies (the styleguide under node_modules). */
export const extensionSourcesDir = () => join(extensionCacheDir(), 'package')

/** Whether a complete build is cached (the marker is written last). */
export const isExtensionBuilt = () => {
  const marker = join(extensionCacheDir(), MARKER)
  if (!existsSync(marker) || !existsSync(join(extensionDir(), 'manifest.json'))) return false
  try {
    return JSON.parse(readFileSync(marker, 'utf8')).layout === LAYOUT
  } catch {
    return false
  }
}

/**
 * webpack takes the AMD branch of secrets.js, which calls its factory without a crypto object,
 * so `secrets.init()` throws at the top of the service worker and no listener is ever
 * registered. Hand it the worker's Web Crypto.
 */
export const patchSecrets = (source: string) => {
  const amd = 'return (root.secrets = factory())'
  if (source.split(amd).length !== 2)
    throw new Error('secrets.js: the AMD branch to patch was not found exactly once')
  return source.replace(amd, 'return (root.secrets = factory(globalThis.crypto))')
}

export interface BuildOptions {
  /** Progress lines (one per step). @default no output */
  log?: (line: string) => void
}

const step = async (
  log: (line: string) => void,
  logFile: string,
  name: string,
  command: string,
  args: string[],
  cwd: string,
) => {
  const started = Date.now()
  log(`${name}…`)
  try {
    const { stdout, stderr } = await run(command, args, {
      cwd,
      maxBuffer: 256 * 1024 * 1024,
      env: { ...process.env, NODE_OPTIONS: '--max-old-space-size=4096' },
    })
    writeFileSync(logFile, `$ ${command} ${args.join(' ')}\n${stdout}\n${stderr}\n`, { flag: 'a' })
  } catch (error) {
    const { stdout = '', stderr = '' } = error as { stdout?: string; stderr?: string }
    writeFileSync(logFile, `$ ${command} ${args.join(' ')}\n${stdout}\n${stderr}\n`, { flag: 'a' })
    throw new Error(`${name} failed; see ${logFile}`, { cause: error })
  }
  log(`${name}: ${((Date.now() - started) / 1000).toFixed(0)} s`)
}

/**
 * Returns the unpacked extension's folder, building it first when the cache holds no complete
 * build. The build runs in a scratch folder beside the cache and is moved in only when it is
 * complete, so an interrupted build is never taken for a good one.
 */
export const ensureExtension = async (options: BuildOptions = {}): Promise<string> => {
  const log = options.log ?? (() => {})
  if (isExtensionBuilt()) return extensionDir()
  const root = cacheRoot()
  mkdirSync(root, { recursive: true })
  const work = join(root, `.build-${EXTENSION_VERSION}-${process.pid}-${Date.now()}`)
  mkdirSync(work)
  const logFile = join(root, `build-${EXTENSION_VERSION}.log`)
  writeFileSync(logFile, '')
  try {
    await step(
      log,
      logFile,
      'npm pack',
      'npm',
      ['pack', `passbolt-browser-extension@${EXTENSION_VERSION}`],
      work,
    )
    const tarball = readdirSync(work).find((f) => f.endsWith('.tgz'))
    if (!tarball) throw new Error('npm pack produced no tarball')
    await step(log, logFile, 'unpack', 'tar', ['-xzf', tarball], work)
    rmSync(join(work, tarball))
    const pkgDir = join(work, 'package')
    const manifestPath = join(pkgDir, 'package.json')
    const manifest = JSON.parse(readFileSync(manifestPath, 'utf8'))
    manifest.dependencies = { ...manifest.dependencies, ...DEPENDENCY_EDITS.dependencies }
    manifest.overrides = { ...manifest.overrides, ...DEPENDENCY_EDITS.overrides }
    writeFileSync(manifestPath, `${JSON.stringify(manifest, null, 2)}\n`)
    // Install scripts (core-js-pure's banner, esbuild's binary check) are not needed to build.
    await step(
      log,
      logFile,
      'npm install (about 1,300 packages)',
      'npm',
      ['install', '--no-audit', '--no-fund', '--ignore-scripts', '--loglevel=error'],
      pkgDir,
    )
    const secrets = join(pkgDir, 'node_modules', 'secrets-passbolt', 'secrets.js')
    writeFileSync(secrets, patchSecrets(readFileSync(secrets, 'utf8')))
    // Not build-chromium-mv3-*: its last step packs a .crx, which needs a signing key.
    await step(
      log,
      logFile,
      'grunt bundle-chromium-mv3',
      'npx',
      ['grunt', 'clean:build', 'pre-dist', 'copy:config_default', 'bundle-chromium-mv3'],
      pkgDir,
    )
    for (const config of WEBPACK_CONFIGS)
      await step(log, logFile, `webpack ${config}`, 'npx', ['webpack', '--config', config], pkgDir)
    if (!existsSync(join(pkgDir, 'build', 'all', 'manifest.json')))
      throw new Error('the build left no build/all/manifest.json')
    // node_modules stays: tests load the client's own entity schemas from it.
    writeFileSync(
      join(work, MARKER),
      `${JSON.stringify({ layout: LAYOUT, extension: EXTENSION_VERSION, styleguide: STYLEGUIDE_VERSION, built: new Date().toISOString() })}\n`,
    )
    const target = extensionCacheDir()
    // Another process may have finished first; its build is as good as ours.
    if (isExtensionBuilt()) rmSync(work, { recursive: true, force: true })
    else {
      rmSync(target, { recursive: true, force: true })
      renameSync(work, target)
    }
    return extensionDir()
  } catch (error) {
    rmSync(work, { recursive: true, force: true })
    throw error
  }
}
