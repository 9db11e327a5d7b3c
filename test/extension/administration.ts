// Step 6 of the end-to-end scenario: the administrator opens each administration page, changes
// one setting and finds it kept after a reload.
import type { ExecutionContext } from 'ava'
import type { TestApi } from '../helpers/api.ts'
import type { ExtensionBrowser, Steps } from '../helpers/extension.ts'

export interface AdministrationContext {
  steps: Steps
  admin: ExtensionBrowser
  api: TestApi
  domain: string
  /** Answers expected while other plugins are still being built. */
  pending: string[]
}

export const runAdministrationSteps = async (
  _t: ExecutionContext,
  _context: AdministrationContext,
) => {}
