// Builds the official passbolt browser extension into the cache unless a complete build is
// there already: `node bin/run.js test/extension/build-extension.ts`. .ci/run calls it before
// the tests, so the end-to-end test finds it ready.
import { ensureExtension, extensionDir, isExtensionBuilt } from '../helpers/extension-build.ts'

const log = (line: string) => console.log(`[extension] ${line}`)

try {
  if (isExtensionBuilt()) log(`cached build: ${extensionDir()}`)
  else {
    const started = Date.now()
    log('building passbolt-browser-extension from the npm registry (once per version)')
    await ensureExtension({ log })
    log(`built in ${((Date.now() - started) / 1000).toFixed(0)} s: ${extensionDir()}`)
  }
} catch (error) {
  console.error(`[extension] ${(error as Error).message}`)
  process.exit(1)
}
