// The generated reference pages of the manual, as { path, markdown }: the environment reference,
// a page per command of `api` and `docs`, and a page per mail provider the extension offers.
// `npm run docs:references` writes them.
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { createProgram as createApiProgram } from '../../api/cli.ts'
import { createProgram as createDocsProgram } from '../index.ts'
import { renderCommandIndex, renderCommandPages } from './commands.ts'
import { renderEnvironmentReference } from './environment.ts'
import { renderSmtpProviderPages } from './smtp-providers.ts'

export interface GeneratedPage {
  /** Path under content/docs/. */
  path: string
  markdown: string
}

const CLI_FOLDER = 'hosting/cli-reference'

/** Every generated page, in a stable order. */
export const generateReferences = async (): Promise<GeneratedPage[]> => {
  const api = createApiProgram()
  const docs = createDocsProgram()
  return [
    {
      path: 'hosting/configure/environment-reference.md',
      markdown: renderEnvironmentReference(),
    },
    {
      path: `${CLI_FOLDER}/index.md`,
      markdown: renderCommandIndex([
        {
          program: api,
          intro:
            'The server: start it, migrate its database, back it up and restore it, check it, create users. With the Debian package it is installed as `keyward-api`; in the container image as the entry point.',
        },
        {
          program: docs,
          intro:
            'The documentation site: build `content/` into static pages, or serve it while you write.',
        },
      ]),
    },
    ...renderCommandPages(api, CLI_FOLDER),
    ...renderCommandPages(docs, CLI_FOLDER),
    ...(await renderSmtpProviderPages()),
  ]
}

/** Writes the generated pages under `<root>/content/docs/`. */
export const writeReferences = async (root: string): Promise<GeneratedPage[]> => {
  const pages = await generateReferences()
  for (const page of pages) writeFileSync(join(root, 'content/docs', page.path), page.markdown)
  return pages
}
