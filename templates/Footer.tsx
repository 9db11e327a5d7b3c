// Footer: logo and slogan in 3 columns, link columns in 8 columns offset by 1, social links,
// copyright.
import type { SiteModel } from '../model/site-model.ts'

export function Footer({ site }: { site: SiteModel }) {
  const { config } = site
  const { footer } = config
  return (
    <footer className="footer">
      <div className="footer__grid">
        <div className="footer__brand">
          <img src={config.logo.src} alt={config.logo.alt} width="40" height="40" loading="lazy" />
          {footer.slogan ? <p className="footer__slogan">{footer.slogan}</p> : null}
          <ul className="footer__social">
            {footer.social.map((s) => (
              <li key={s.href}>
                <a
                  href={s.href}
                  aria-label={s.label}
                  title={s.label}
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
              <h2 className="footer__title">{column.title}</h2>
              <ul>
                {column.items.map((item) => (
                  <li key={item.label}>
                    <a href={item.to ?? item.href}>{item.label}</a>
                  </li>
                ))}
              </ul>
            </div>
          ))}
        </div>
      </div>
      <p className="footer__copyright">{footer.copyright}</p>
    </footer>
  )
}
