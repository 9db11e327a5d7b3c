// Renders one page model to a complete HTML document.
import { renderToStaticMarkup, renderToString } from 'react-dom/server'
import type { PageModel, SidebarItem, SiteModel } from '../model/site-model.ts'
import { Html } from './Html.tsx'
import { Layout } from './Layout.tsx'
import { PageBody } from './PageBody.tsx'
import { CategoryBody, IdleCategoryMarkup } from './Sidebar.tsx'
import { SiteContext } from './SiteContext.tsx'

type Category = Extract<SidebarItem, { type: 'category' }>

/** Markup of categories away from the current page, made once per sidebar tree. */
const idleMarkup = new WeakMap<Category, string>()
const markupAwayFromPage = (item: Category): string => {
  let markup = idleMarkup.get(item)
  if (markup === undefined) {
    markup = renderToStaticMarkup(<CategoryBody item={item} route="" />)
    idleMarkup.set(item, markup)
  }
  return markup
}

export const renderPage = (site: SiteModel, page: PageModel): string =>
  `<!DOCTYPE html>${renderToString(
    <SiteContext.Provider value={site}>
      <IdleCategoryMarkup.Provider value={markupAwayFromPage}>
        <Html site={site} page={page}>
          <Layout page={page}>
            <PageBody page={page} html={page.html} />
          </Layout>
        </Html>
      </IdleCategoryMarkup.Provider>
    </SiteContext.Provider>,
  )}`
