// Where pages land in the output tree: `/docs/a/b/` is `docs/a/b/index.html` beside its
// `page-data.json`.
import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import type { PageModel } from '../../model/site-model.ts'

export const PAGE_DATA_FILE = 'page-data.json'

export const routeDir = (outDir: string, route: string): string =>
  join(outDir, ...route.split('/').filter(Boolean))

/** Writes the page's HTML and the data the client needs to show it without a reload. */
export const writePage = (outDir: string, page: PageModel, html: string): void => {
  const dir = routeDir(outDir, page.route)
  mkdirSync(dir, { recursive: true })
  writeFileSync(join(dir, 'index.html'), html)
  writeFileSync(join(dir, PAGE_DATA_FILE), JSON.stringify(page))
}
