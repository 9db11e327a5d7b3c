// Inline scripts of the head. They run before first paint and before any asset loads, so they
// work even when the assets cannot load (a site served under the wrong base URL).
import type { SiteConfig } from '../model/site-config.ts'
import { announcementKey } from './AnnouncementBar.tsx'
import { colorModeHeadScript } from './color-mode.ts'

/** A value as a script literal that cannot end the script element. */
const literal = (value: string) => JSON.stringify(value).replace(/</g, '\\u003c')

/** Hides a dismissed announcement bar before it paints. */
const announcementScript = (id: string) =>
  `try{localStorage.getItem(${literal(announcementKey(id))})==='true'&&` +
  `document.documentElement.setAttribute('data-announcement-dismissed','')}catch(e){}`

/**
 * When the page is served outside the configured base URL (its assets then 404), shows a
 * message with the base URL that would work: the address minus the page's own route suffix.
 */
const baseUrlScript = (baseUrl: string, route: string) =>
  `(function(){var b=${literal(baseUrl)},r=${literal(route)},p=location.pathname;` +
  `if(p.indexOf(b)===0)return;var s=r.slice(b.length),g=s&&p.slice(-s.length)===s?` +
  `p.slice(0,p.length-s.length):p.replace(/[^/]*$/,'');` +
  `document.addEventListener('DOMContentLoaded',function(){var d=document.createElement('div');` +
  `d.id='base-url-issue';d.setAttribute('role','alert');` +
  `d.style.cssText='padding:1rem;margin:1rem;border:2px solid #fa383e;border-radius:.5rem;background:#fff0f0;color:#1c1e21;font:16px system-ui,sans-serif';` +
  `var h=document.createElement('p');h.style.fontWeight='700';h.textContent='This site did not load properly.';` +
  `var t=document.createElement('p');t.textContent='It is configured for the base URL '+b+' but is served at '+p+'. ` +
  `Set baseUrl in content/site.config.ts to '+g+' and rebuild, or serve the site under '+b+'.';` +
  `d.append(h,t);document.body.prepend(d)})})()`

export const headScripts = (config: SiteConfig, route: string): string =>
  [
    // Styles for scripted widgets (tab panels, copy buttons) apply only when scripts run.
    "document.documentElement.setAttribute('data-js','')",
    colorModeHeadScript(config.colorMode),
    config.announcementBar?.isCloseable ? announcementScript(config.announcementBar.id) : '',
    baseUrlScript(config.baseUrl, route),
  ].join(';')
