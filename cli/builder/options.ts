// What a build is asked to do and what it reports.
import type { Diagnostic } from '../errors.ts'
import type { StageTiming } from '../render/stages.ts'

export interface BuildOptions {
  /** Project root holding content/. */
  root: string
  /** Output folder; the site lands in `<outDir><baseUrl>`. */
  outDir: string
  /** Dev server build: live-reload client, and errors reported instead of thrown. */
  dev?: boolean
  /** Render workers for big sites; 1 renders in this thread. @default the number of cores */
  workers?: number
  /**
   * Folder of the persistent build cache; `false` builds without it.
   * @default `<root>/.cache/docs`
   */
  cacheDir?: string | false
}

export interface BuildResult {
  /** Routes written by this run. */
  routes: string[]
  errors: Diagnostic[]
  warnings: Diagnostic[]
  /** True when the whole site was rebuilt. */
  full: boolean
  /** An update changed what every page of a guide shows (its sidebar), not only its pages. */
  layout?: boolean
  /** Docs whose Markdown came from the build cache. */
  cached: number
  /** When each step ran (for profiles). */
  stages: StageTiming[]
}
