// What a site's `content/site.config.ts` and `content/sidebars.ts` import, as `keyward/docs`,
// wherever the site lives (cli/config.ts bundles them with this file).

export { defineSidebars } from './sidebars-config.ts'
export { defineConfig } from './site-config.ts'
