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

/**
 * A remark or rehype plugin of the site: a module specifier (a package name, or a path relative
 * to the folder of site.config.ts, with its extension) whose default export is the plugin, or
 * the specifier and the plugin's options. Options are plain data (JSON): they go to the render
 * workers and into the build cache's key.
 */
const markdownPlugin = z.union([z.string().min(1), z.tuple([z.string().min(1), z.json()])])

const markdown = z.strictObject({
  /** Run after Keyward's own remark steps. */
  remarkPlugins: z.array(markdownPlugin).default([]),
  /** Run before Keyward's own rehype steps (headings, sections, code, islands). */
  rehypePlugins: z.array(markdownPlugin).default([]),
})

/** A URL segment: a locale code or a version's path. */
const SEGMENT = /^[a-z0-9][a-z0-9._-]*$/i

const locale = z.strictObject({
  /** A BCP 47 tag (`fr`, `pt-BR`): the pages' `lang` and `hreflang`, and their URL segment. */
  code: z.string().regex(SEGMENT, 'must be a language tag such as "fr" or "pt-BR"'),
  label: z.string().min(1),
  /** The landing page's title, tagline and guide cards in this language. */
  title: z.string().min(1).optional(),
  tagline: z.string().optional(),
  guides: z
    .record(z.string(), z.strictObject({ label: z.string().min(1), description: z.string() }))
    .optional(),
  /** Template strings, read from content/i18n/<code>/strings.json by the build. */
  strings: z.record(z.string(), z.string()).optional(),
})

const siteConfigObject = z.strictObject({
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
  /**
   * With `repositoryUrl`, each doc's "Edit this page" link: the path after the repository's
   * address, `{path}` standing for the doc's file below content/docs/ (`edit/main/content/docs/{path}`).
   */
  editPath: z
    .string()
    .regex(/\{path\}/, 'must hold {path}')
    .optional(),
  /** The picture link previews show for a page without its own `image` (`og:image`). */
  image: z
    .string()
    .regex(/^(\/|https:\/\/)/, 'a path such as "/docs/img/x.png" or an https URL')
    .optional(),
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
  /**
   * The current docs (the first entry, its `path` empty) and archived versions, each kept in
   * content/versions/<name>/docs/ and rendered below `<baseUrl><path>/`.
   */
  versions: z
    .array(
      z.strictObject({
        name: z.string().regex(SEGMENT, 'must be a lowercase name such as "v1" or "1.x"'),
        label: z.string().min(1),
        /** The URL segment below the base URL; '' for the current docs, the name when absent. */
        path: z.string().optional(),
      }),
    )
    .min(1)
    .default([{ name: 'current', label: 'Next', path: '' }]),
  /**
   * The default locale renders at the base URL; another's pages are translated in
   * content/i18n/<code>/docs/ and render below `<baseUrl><code>/`, an untranslated page falling
   * back to the default locale's. Template strings come from content/i18n/<code>/strings.json.
   */
  locales: z
    .strictObject({
      default: z.string().min(2),
      items: z.array(locale).min(1),
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
  /**
   * Stylesheets of the site, relative to the folder of site.config.ts, added after Keyward's
   * own into the one stylesheet pages load.
   */
  customCss: z.array(z.string().min(1)).default([]),
  /** The site's own Markdown plugins, added to Keyward's pipeline. */
  markdown: markdown.default({ remarkPlugins: [], rehypePlugins: [] }),
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

/** Locales and versions share the URL segments below the base URL with the guides. */
export const siteConfigSchema = siteConfigObject.superRefine((config, ctx) => {
  const { locales, versions, guides } = config
  const codes = locales.items.map((item) => item.code)
  if (!codes.includes(locales.default))
    ctx.addIssue({
      code: 'custom',
      path: ['locales', 'default'],
      message: `"${locales.default}" is not one of locales.items`,
    })
  if (versions[0].path)
    ctx.addIssue({
      code: 'custom',
      path: ['versions', 0, 'path'],
      message: 'the current docs (the first version) render at the base URL: path must be ""',
    })
  const segments = new Map<string, string>(guides.map((guide) => [guide.id, `guide "${guide.id}"`]))
  const claim = (segment: string, owner: string, path: PropertyKey[]) => {
    const other = segments.get(segment)
    if (other) ctx.addIssue({ code: 'custom', path, message: `"${segment}" is also ${other}` })
    segments.set(segment, owner)
  }
  locales.items.forEach((item, i) => {
    if (codes.indexOf(item.code) !== i)
      ctx.addIssue({ code: 'custom', path: ['locales', 'items', i, 'code'], message: 'duplicate' })
    else if (item.code !== locales.default)
      claim(item.code, `locale "${item.code}"`, ['locales', 'items', i, 'code'])
  })
  versions.forEach((version, i) => {
    if (versions.findIndex((v) => v.name === version.name) !== i)
      ctx.addIssue({ code: 'custom', path: ['versions', i, 'name'], message: 'duplicate' })
    if (i === 0) return
    const path = version.path ?? version.name
    if (!SEGMENT.test(path))
      ctx.addIssue({
        code: 'custom',
        path: ['versions', i, 'path'],
        message: 'must be a URL segment',
      })
    else claim(path, `version "${version.name}"`, ['versions', i, 'path'])
  })
})

export type SiteConfigInput = z.input<typeof siteConfigSchema>
export type SiteConfig = z.output<typeof siteConfigSchema>
export type LocaleConfig = z.output<typeof locale>
export type VersionConfig = z.output<typeof siteConfigObject>['versions'][number]
export type NavLink = z.output<typeof link>
export type ScriptConfig = z.output<typeof script>
export type PrivacyConfig = z.output<typeof privacy>
export type MarkdownPluginConfig = z.output<typeof markdownPlugin>

/** Identity helper that types `content/site.config.ts`. */
export const defineConfig = (config: SiteConfigInput): SiteConfigInput => config
