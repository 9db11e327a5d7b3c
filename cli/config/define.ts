// What a site's `content/site.config.ts` and `content/sidebars.ts` import, as `keyward/docs`,
// wherever the site lives (cli/config/config.ts bundles them with this file).

export { defineConfig } from '../../model/site-config.ts'
export { defineSidebars } from './sidebars-config.ts'
