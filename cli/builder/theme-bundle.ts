// The templates bundled with a site's component overrides (cli/output/theme.ts), one bundle per
// build in a temporary folder that lives as long as the builder.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { bundleErrorMessage, bundleModule } from '../config/module-bundle.ts'
import { BuildFailedError } from '../errors.ts'
import { type Theme, themePlugin } from '../output/theme.ts'

const RENDER = fileURLToPath(new URL('../../templates/render.tsx', import.meta.url))

export class ThemeBundles {
  private dir: string | undefined

  /** Bundles the templates with `theme`'s overrides; resolves with the bundle's path. */
  async bundle(theme: Theme): Promise<string> {
    this.dir ??= mkdtempSync(join(tmpdir(), 'keyward-theme-'))
    try {
      // A new file each time: an import is cached by its URL.
      const dir = mkdtempSync(join(this.dir, 'build-'))
      return await bundleModule(RENDER, dir, {}, [themePlugin(theme)])
    } catch (error) {
      throw new BuildFailedError([
        {
          file: 'content/theme',
          message: `the overrides do not build: ${bundleErrorMessage(error)}`,
        },
      ])
    }
  }

  close(): void {
    if (this.dir) rmSync(this.dir, { recursive: true, force: true })
    this.dir = undefined
  }
}
