// The logo and title, linking to the configured address or the site root.
import { useSite } from './SiteContext.tsx'

export function Brand() {
  const { config } = useSite()
  return (
    <a className="navbar__brand" href={config.logo.href ?? config.baseUrl}>
      <img src={config.logo.src} alt={config.logo.alt} width="32" height="32" />
      <span className="navbar__title">{config.title}</span>
    </a>
  )
}
