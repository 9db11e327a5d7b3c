// Site configuration: the zod schema behind `content/site.config.ts` and the typing helper it uses.
import { z } from 'zod'

const link = z.strictObject({
  label: z.string().min(1),
  /** Route inside the site, e.g. `/docs/user/`. Checked by the build. */
  to: z.string().startsWith('/').optional(),
  /** External address. */
  href: z.url().optional(),
})

const navbarItem = link.extend({
  position: z.enum(['left', 'right']).default('left'),
})

const script = z.strictObject({
  src: z.url().or(z.string().startsWith('/')),
  async: z.boolean().default(false),
  defer: z.boolean().default(false),
  /** Extra attributes, e.g. `{"data-cookieconsent": "ignore"}`; `type` may delay execution until consent. */
  attributes: z.record(z.string(), z.string()).default({}),
})

/** Google's tag loader; the client appends `?id=<tagManager.id>`. */
export const GTAG_SRC = 'https://www.googletagmanager.com/gtag/js'

/**
 * Consent and statistics. Only `consent` is written into the HTML; `analytics` and `tagManager`
 * are injected by templates/client/consent.ts once the visitor consents to statistics.
 */
const privacy = z.strictObject({
  /** The consent-management (cookie banner) script, rendered in the head of every page. */
  consent: script.optional(),
  /** A privacy-friendly analytics script, e.g. `{src, attributes: {"data-domain": "…"}}`. */
  analytics: script.optional(),
  /** Google tag (gtag.js) with consent mode: storage stays denied until statistics consent. */
  tagManager: z
    .strictObject({
      /** Measurement or container id, e.g. `G-XXXXXXX`. */
      id: z.string().regex(/^[A-Za-z0-9_-]+$/, 'must be a tag id such as "G-XXXXXXX"'),
      /** @default GTAG_SRC */
      src: z.url().default(GTAG_SRC),
    })
    .optional(),
})

export const siteConfigSchema = z.strictObject({
  title: z.string().min(1),
  tagline: z.string().default(''),
  /** Public origin of the site, without the base path. */
  url: z.url(),
  baseUrl: z
    .string()
    .regex(/^\/([a-z0-9-]+\/)*$/, 'must start and end with "/", e.g. "/docs/"')
    .default('/docs/'),
  favicon: z.string().optional(),
  repositoryUrl: z.url().optional(),
  logo: z.strictObject({
    src: z.string().min(1),
    alt: z.string().min(1),
    /** Where the logo links; the site root when absent. */
    href: z.string().optional(),
  }),
  navbar: z.strictObject({
    items: z.array(navbarItem).default([]),
    /** Hide the navbar while scrolling down (once past its height); it returns on scroll up. */
    hideOnScroll: z.boolean().default(true),
  }),
  footer: z.strictObject({
    slogan: z.string().default(''),
    columns: z
      .array(z.strictObject({ title: z.string().min(1), items: z.array(link) }))
      .default([]),
    social: z
      .array(z.strictObject({ label: z.string().min(1), href: z.url(), icon: z.string().min(1) }))
      .default([]),
    copyright: z.string().min(1),
  }),
  colorMode: z
    .strictObject({
      defaultMode: z.enum(['light', 'dark']).default('dark'),
      disableSwitch: z.boolean().default(false),
      respectPrefersColorScheme: z.boolean().default(false),
    })
    .default({ defaultMode: 'dark', disableSwitch: false, respectPrefersColorScheme: false }),
  announcementBar: z
    .strictObject({
      id: z.string().min(1),
      /** Trusted HTML from the site owner. */
      content: z.string().min(1),
      isCloseable: z.boolean().default(true),
    })
    .optional(),
  /** Scripts added to every page's head as they are; put anything that tracks under `privacy`. */
  scripts: z.array(script).default([]),
  privacy: privacy.default({}),
  versions: z
    .array(z.strictObject({ name: z.string().min(1), label: z.string().min(1), path: z.string() }))
    .min(1)
    .default([{ name: 'current', label: 'Next', path: '' }]),
  locales: z
    .strictObject({
      default: z.string().min(2),
      items: z.array(z.strictObject({ code: z.string().min(2), label: z.string().min(1) })).min(1),
    })
    .default({ default: 'en', items: [{ code: 'en', label: 'English' }] }),
  sitemap: z
    .strictObject({
      /** Glob patterns (`*` one segment, `**` any depth) of routes left out of sitemap.xml. */
      ignorePatterns: z.array(z.string()).default([]),
      changefreq: z
        .enum(['always', 'hourly', 'daily', 'weekly', 'monthly', 'yearly', 'never'])
        .default('weekly'),
    })
    .default({ ignorePatterns: [], changefreq: 'weekly' }),
  search: z
    .strictObject({
      /** Route globs left out of the search indexes (demo pages). */
      ignorePatterns: z.array(z.string()).default(['/docs/components/**']),
    })
    .default({ ignorePatterns: ['/docs/components/**'] }),
  /**
   * The API reference page, rendered from an OpenAPI 3.1 document that a module builds (the
   * server's own route declarations), with the document and the page's layout as JSON beside it.
   */
  apiReference: z
    .strictObject({
      /** The page's route, e.g. `/docs/api/`. */
      route: z.string().regex(/^\/([a-z0-9-]+\/)*$/, 'must start and end with "/"'),
      /** Module below the project root whose default export is the document or returns it. */
      document: z.string().min(1),
      /**
       * Files and folders below the root the document is built from: the build cache reuses the
       * document while none of them changes.
       */
      sources: z.array(z.string().min(1)).min(1),
      /** The sidebar whose links (the guides beside the reference) head the page's navigation. */
      sidebar: z.string().optional(),
    })
    .optional(),
  /** Guides shown on the landing page and owning a sidebar each. */
  guides: z
    .array(
      z.strictObject({
        id: z.string().regex(/^[a-z][a-z0-9-]*$/),
        label: z.string().min(1),
        description: z.string().default(''),
      }),
    )
    .default([]),
})

export type SiteConfigInput = z.input<typeof siteConfigSchema>
export type SiteConfig = z.output<typeof siteConfigSchema>
export type NavLink = z.output<typeof link>
export type ScriptConfig = z.output<typeof script>
export type PrivacyConfig = z.output<typeof privacy>

/** Identity helper that types `content/site.config.ts`. */
export const defineConfig = (config: SiteConfigInput): SiteConfigInput => config
