// The docs of the site's other locales and archived versions (model/variants.ts): their sources
// in content/i18n/<code>/docs/ and content/versions/<name>/docs/, the default locale's docs that
// stand in for pages not translated yet, and each page's links to itself in the other variants.
import { existsSync } from 'node:fs'
import { join, relative } from 'node:path'
import type { PageVariants } from '../../model/site-model.ts'
import { type Variant, variantOf, variantsOf } from '../../model/variants.ts'
import type { ResolvedConfig } from '../config/config.ts'
import type { Diagnostics } from '../errors.ts'
import { type DocSource, type LoadOptions, loadDocs } from './content.ts'

export interface VariantDocs extends Variant {
  /** Where its Markdown lives. */
  docsDir: string
}

/** The variants besides the default, with their folders. */
export const variantFolders = ({ site, contentDir }: ResolvedConfig): VariantDocs[] =>
  variantsOf(site)
    .slice(1)
    .map((variant) => ({
      ...variant,
      docsDir: variant.archived
        ? join(contentDir, 'versions', variant.version, 'docs')
        : join(contentDir, 'i18n', variant.locale, 'docs'),
    }))

/** The variants' own docs (translations and archived versions). */
export const loadVariantDocs = (
  config: ResolvedConfig,
  frontMatters: LoadOptions['frontMatters'],
  diagnostics: Diagnostics,
): DocSource[] => {
  const docs: DocSource[] = []
  for (const variant of variantFolders(config)) {
    if (!existsSync(variant.docsDir)) {
      // A locale may have no translated page yet; an archived version is nothing without its docs.
      if (variant.archived)
        diagnostics.error({
          file: 'content/site.config.ts',
          message: `version "${variant.version}" has no ${relative(config.root, variant.docsDir)}/ (\`docs version ${variant.version}\` makes it)`,
        })
      continue
    }
    const loaded = loadDocs(
      { root: config.root, docsDir: variant.docsDir, baseUrl: variant.base, frontMatters },
      diagnostics,
    )
    for (const doc of loaded) docs.push({ ...doc, variant: variant.key })
  }
  return docs
}

/**
 * For each locale, the default locale's docs it has no translation of, at the routes and files
 * their translations would have.
 */
export const fallbackSources = (config: ResolvedConfig, sources: DocSource[]): DocSource[] => {
  const { baseUrl } = config.site
  const defaults = sources.filter((doc) => doc.variant === undefined)
  const fallbacks: DocSource[] = []
  for (const variant of variantFolders(config)) {
    if (variant.archived) continue
    const translated = new Set(
      sources.filter((doc) => doc.variant === variant.key).map((doc) => doc.relPath),
    )
    for (const doc of defaults)
      if (!translated.has(doc.relPath))
        fallbacks.push({
          ...doc,
          file: join(variant.docsDir, doc.relPath),
          route: `${variant.base}${doc.route.slice(baseUrl.length)}`,
          variant: variant.key,
          fallbackOf: doc.file,
        })
  }
  return fallbacks
}

/** A page's place among the variants, from the routes the site has. */
export const pageVariants = (
  config: ResolvedConfig,
  route: string,
  routes: ReadonlySet<string>,
  fallback: boolean,
  /** Routes that are the default locale's content shown in another (not translations). */
  fallbackRoutes: ReadonlySet<string>,
): PageVariants => {
  const { site } = config
  const variants = variantsOf(site)
  const here = variantOf(site, route)
  const path = route.slice(here.base.length)
  const at = (variant: Variant) =>
    routes.has(`${variant.base}${path}`) ? `${variant.base}${path}` : undefined
  const current = variants.filter((v) => !v.archived)
  const locales = site.locales.items.map((item) => {
    const variant = current.find((v) => v.locale === item.code)!
    // An archived version is in the default locale only: other locales link to their landing.
    const target = here.archived ? (item.code === here.locale ? route : undefined) : at(variant)
    return {
      code: item.code,
      label: item.label,
      href: target ?? variant.base,
      translated: target !== undefined && !fallbackRoutes.has(target),
    }
  })
  const versions = site.versions.map((version) => {
    const variant =
      version.name === here.version
        ? here
        : (variants.find(
            (v) => v.version === version.name && (v.archived || v.locale === here.locale),
          ) ?? variants[0])
    return { name: version.name, label: version.label, href: at(variant) ?? variant.base }
  })
  // A translation is its own canonical page; an archived or untranslated copy points at the
  // current page in the default locale.
  const canonical = here.archived || fallback ? at(variants[0]) : undefined
  return {
    locale: here.locale,
    version: here.version,
    ...(fallback && { fallback }),
    locales,
    versions,
    ...(canonical && { canonical }),
  }
}
