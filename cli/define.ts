// What a site's `content/site.config.ts` and `content/sidebars.ts` import, as `keyward/docs`,
// wherever the site lives (cli/config-hooks.js resolves the name to this file).

export { defineSidebars } from './sidebars-config.ts'
export { defineConfig } from './site-config.ts'
