// Statistics scripts (analytics, tag manager) load only once the visitor consents.
import type { SiteConfig } from '../../cli/site-config.ts'

export const initConsent = (_config: SiteConfig): void => {}
