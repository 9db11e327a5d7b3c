// axe-core run inside a page: the serious and critical findings, one line each (rule, then the
// first elements it names), so a failing test says what to fix.
import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import type { Page } from 'playwright-core'

const axeSource = () =>
  readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8')

interface AxeResult {
  violations: { id: string; impact: string; nodes: { target: string[] }[] }[]
}

/** @param include CSS selectors of the parts to check (the whole page by default) */
export const seriousAxeFindings = async (page: Page, include?: string[]): Promise<string[]> => {
  await page.addScriptTag({ content: axeSource() })
  return page.evaluate(async (include) => {
    const { axe } = window as unknown as {
      axe: { run: (context?: object) => Promise<AxeResult> }
    }
    const result = await axe.run(include ? { include: include.map((s) => [s]) } : document)
    return result.violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map(
        (v) =>
          `${v.id} (${v.nodes.length}): ${v.nodes
            .slice(0, 3)
            .map((n) => n.target.join(' '))
            .join(', ')}`,
      )
  }, include)
}
