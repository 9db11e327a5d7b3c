// Sidebar items in the browser: each sidebar is a hashed JSON file, fetched once and kept in
// the site model, so client navigation and the mobile menu render the same tree the build did.
import { useEffect, useState } from 'react'
import type { SidebarItem, SiteModel } from '../model/site-model.ts'
import { takeEarlyFetch } from './client/early-fetch.ts'
import { useSite } from './SiteContext.tsx'

const loading = new Map<string, Promise<SidebarItem[]>>()

export const loadSidebar = (site: SiteModel, id: string): Promise<SidebarItem[]> => {
  const known = site.sidebars[id]
  if (known) return Promise.resolve(known)
  const url = site.assets.sidebars[id]
  if (!url) return Promise.reject(new Error(`No sidebar with the id "${id}"`))
  let promise = loading.get(url)
  if (!promise) {
    promise = (takeEarlyFetch(url) ?? fetch(url)).then(async (response) => {
      if (!response.ok) throw new Error(`${url}: HTTP ${response.status}`)
      const items = (await response.json()) as SidebarItem[]
      site.sidebars[id] = items
      return items
    })
    promise.catch(() => loading.delete(url))
    loading.set(url, promise)
  }
  return promise
}

/** The items of sidebar `id`: at once when known, else after they arrive. */
export const useSidebarItems = (id: string | undefined): SidebarItem[] | undefined => {
  const site = useSite()
  const [, setLoaded] = useState(0)
  const items = id ? site.sidebars[id] : undefined
  useEffect(() => {
    if (id && !items)
      loadSidebar(site, id).then(
        () => setLoaded((n) => n + 1),
        (error) => console.warn(`The sidebar "${id}" did not load: ${error}`),
      )
  }, [id, items, site])
  return items
}
