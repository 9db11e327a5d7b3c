// `docs build`: the whole site, once, failing on any error. The builder and its steps are in
// cli/builder/ (the dev server keeps a builder between edits).

import type { BuildOptions, BuildResult } from './builder/options.ts'
import { SiteBuilder } from './builder/site-builder.ts'
import { BuildFailedError } from './errors.ts'

export type { BuildOptions, BuildResult } from './builder/options.ts'

export const build = async (options: BuildOptions): Promise<BuildResult> => {
  const builder = new SiteBuilder(options)
  try {
    const result = await builder.buildAll()
    if (result.errors.length) throw new BuildFailedError(result.errors)
    return result
  } finally {
    await builder.close()
  }
}
