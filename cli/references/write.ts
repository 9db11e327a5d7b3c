// `npm run docs:references`: regenerates the reference pages of content/ from the code.
import { mkdirSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { writeReferences } from './references.ts'

const root = fileURLToPath(new URL('../..', import.meta.url))
mkdirSync(join(root, 'content/docs/hosting/cli-reference'), { recursive: true })
for (const page of await writeReferences(root)) console.log(`wrote content/docs/${page.path}`)
