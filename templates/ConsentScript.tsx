// The configured cookie-consent script, in the head so it runs before the page's own scripts.
import type { SiteConfig } from '../cli/site-config.ts'

export function ConsentScript(_props: { config: SiteConfig }) {
  return null
}
