// Footer: logo and slogan in 3 columns, link columns in 8 columns offset by 1, social links,
// copyright, in the language of the page at `route` when its strings translate them. Client
// navigation renders it again when the language changes.
import type { SiteModel } from '../model/site-model.ts'
import { variantOf } from '../model/variants.ts'
import { siteTextOf } from './strings.ts'

export function Footer({ site, route }: { site: SiteModel; route: string }) {
  const { config } = site
  const { footer } = config
  const text = siteTextOf(config, variantOf(config, route).locale)
  return (
    <footer className="footer">
      <div className="footer__grid">
        <div className="footer__brand">
          <img src={config.logo.src} alt={config.logo.alt} width="40" height="40" loading="lazy" />
          {footer.slogan ? <p className="footer__slogan">{text(footer.slogan)}</p> : null}
          <ul className="footer__social">
            {footer.social.map((s) => (
              <li key={s.href}>
                <a
                  href={s.href}
                  aria-label={text(s.label)}
                  title={text(s.label)}
                  rel="noopener noreferrer"
                  target="_blank"
                >
                  <img src={s.icon} alt="" width="20" height="20" loading="lazy" />
                </a>
              </li>
            ))}
          </ul>
        </div>
        <div className="footer__links">
          {footer.columns.map((column) => (
            <div className="footer__column" key={column.title}>
              <h2 className="footer__title">{text(column.title)}</h2>
              <ul>
                {column.items.map((item) => (
                  <li key={item.label}>
                    <a href={item.to ?? item.href}>{text(item.label)}</a>
                  </li>
                ))}
              </ul>
            </div>
          ))}
        </div>
      </div>
      <p className="footer__copyright">{text(footer.copyright)}</p>
    </footer>
  )
}
