// The configured cookie-consent script, in the head so it runs before the page's own scripts.
// Also a tiny queue for the consent contract, so a CMP that answers before templates/client/consent.ts
// has run (a returning visitor, a synchronous banner script) is not lost.
import type { SiteConfig } from '../model/site-config.ts'

/**
 * Stands in for `window.keywardConsent` until consent.ts takes over: remembers `grant()`,
 * `revoke()` and `keyward:consent` events (as the list of granted categories) for it to replay.
 * The names are the contract documented in content/docs/contribute/developer/consent-and-analytics.md.
 */
const consentQueueScript =
  "(function(w){if(w.keywardConsent)return;var q=[],a={queue:q,grant:function(c){q.push(c||['statistics'])}," +
  'revoke:function(){q.push([])}};w.keywardConsent=a;' +
  "w.addEventListener('keyward:consent',function(e){if(w.keywardConsent===a)" +
  "q.push(e.detail&&e.detail.statistics?['statistics']:[])},true)})(window)"

export function ConsentScript({ config }: { config: SiteConfig }) {
  const { consent, analytics, tagManager } = config.privacy
  if (!consent && !analytics && !tagManager) return null
  return (
    <>
      <script dangerouslySetInnerHTML={{ __html: consentQueueScript }} />
      {consent ? (
        <script
          src={consent.src}
          async={consent.async || undefined}
          defer={consent.defer || undefined}
          {...consent.attributes}
        />
      ) : null}
    </>
  )
}
