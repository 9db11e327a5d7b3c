// Statistics scripts (analytics, tag manager) load only once the visitor consents.
// Contract for a consent banner (CMP): `window.keywardConsent.grant(['statistics'])` and
// `.revoke()`, or a `keyward:consent` event with `detail: { statistics: boolean }`; Cookiebot's
// own events are understood as well. A grant is remembered in localStorage (`docs-consent`) so
// later pages load the scripts at once. templates/ConsentScript.tsx queues early calls.
import type { ScriptConfig, SiteConfig } from '../../model/site-config.ts'
import { storage } from '../storage.ts'

export interface KeywardConsent {
  /** The visitor accepts these categories (all of them when omitted); others are refused. */
  grant(categories?: string[]): void
  /** The visitor withdraws statistics consent. */
  revoke(): void
  /** Answers given before this module ran, filled by the head script of ConsentScript.tsx. */
  queue?: string[][]
}

declare global {
  interface Window {
    keywardConsent?: KeywardConsent
    dataLayer?: unknown[]
    Cookiebot?: { hasResponse?: boolean; consent?: { statistics?: boolean } }
  }
}

const STORAGE_KEY = 'docs-consent'
const STATISTICS = 'statistics'
const CONSENT_EVENT = 'keyward:consent'
const COOKIEBOT_EVENTS = ['CookiebotOnConsentReady', 'CookiebotOnAccept', 'CookiebotOnDecline']

const remembered = (): boolean => storage.get(STORAGE_KEY) === STATISTICS

const remember = (granted: boolean) => {
  if (granted) storage.set(STORAGE_KEY, STATISTICS)
  else storage.remove(STORAGE_KEY)
}

const injectScript = ({ src, attributes }: Pick<ScriptConfig, 'src' | 'attributes'>) => {
  const script = document.createElement('script')
  script.async = true
  for (const [name, value] of Object.entries(attributes)) script.setAttribute(name, value)
  script.src = src
  document.head.append(script)
}

/** gtag.js reads `arguments` objects from the data layer, not arrays. */
function gtag(..._args: unknown[]) {
  window.dataLayer ??= []
  // biome-ignore lint/complexity/noArguments: gtag.js only understands Arguments objects.
  window.dataLayer.push(arguments)
}

let started = false

/** Installs the consent gate; runs once per page. */
export const initConsent = ({ privacy }: SiteConfig): void => {
  const { analytics, tagManager } = privacy
  if (started || (!privacy.consent && !analytics && !tagManager)) return
  started = true
  if (tagManager)
    gtag('consent', 'default', {
      ad_storage: 'denied',
      ad_user_data: 'denied',
      ad_personalization: 'denied',
      analytics_storage: 'denied',
    })

  let granted = false
  let loaded = false
  const apply = (statistics: boolean) => {
    remember(statistics)
    if (statistics === granted) return
    granted = statistics
    if (tagManager)
      gtag('consent', 'update', { analytics_storage: statistics ? 'granted' : 'denied' })
    if (!statistics || loaded) return
    loaded = true
    if (tagManager) {
      gtag('js', new Date())
      gtag('config', tagManager.id)
      const src = new URL(tagManager.src, location.href)
      src.searchParams.set('id', tagManager.id)
      injectScript({ src: src.href, attributes: {} })
    }
    if (analytics) injectScript(analytics)
  }
  const fromCookiebot = () => {
    const cookiebot = window.Cookiebot
    return cookiebot?.hasResponse ? cookiebot.consent?.statistics === true : undefined
  }

  // The latest answer wins: the remembered one, calls queued before this ran, then Cookiebot's
  // (it may have answered already), so a withdrawn consent never loads anything first.
  let initial = remembered()
  for (const categories of window.keywardConsent?.queue ?? [])
    initial = categories.includes(STATISTICS)
  window.keywardConsent = {
    grant: (categories = [STATISTICS]) => apply(categories.includes(STATISTICS)),
    revoke: () => apply(false),
  }
  apply(fromCookiebot() ?? initial)
  // Capture on window sees the event whether it is dispatched on window, document or an element.
  addEventListener(
    CONSENT_EVENT,
    (event) => apply((event as CustomEvent<{ statistics?: boolean }>).detail?.statistics === true),
    true,
  )
  for (const name of COOKIEBOT_EVENTS)
    addEventListener(name, () => {
      const statistics = fromCookiebot()
      if (statistics !== undefined) apply(statistics)
    })
}
