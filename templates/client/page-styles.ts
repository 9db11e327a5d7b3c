// Client navigation: a page whose content needs a stylesheet the first page did not link (KaTeX's
// for math) gets it before its content shows. Once added it stays, as the browser caches it.
import type { PageModel, SiteModel } from '../../model/site-model.ts'

export const linkPageStyles = (site: SiteModel, page: PageModel): void => {
  if (!page.features?.includes('math')) return
  if (document.querySelector('link[data-feature="math"]')) return
  const link = document.createElement('link')
  link.rel = 'stylesheet'
  link.href = site.assets.mathCss
  link.dataset.feature = 'math'
  document.head.append(link)
}
