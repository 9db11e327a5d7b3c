// Module resolution hook of the docs CLI: `keyward/docs` names the CLI's own config helpers
// (cli/define.ts), so a site folder outside this repository, without node_modules, can import
// them. Registered by cli/config.ts before it loads a site's config.
const SPECIFIER = 'keyward/docs'
const TARGET = new URL('./define.ts', import.meta.url).href

// The TypeScript loader resolves the file in turn (it marks it as TypeScript for loading).
export const resolve = (specifier, context, next) =>
  next(specifier === SPECIFIER ? TARGET : specifier, context)
