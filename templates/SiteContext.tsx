// The site model for every component, on the server (the build's model) and in the browser
// (the embedded config plus the sidebars fetched so far).
import { createContext, useContext } from 'react'
import type { SiteModel } from '../model/site-model.ts'

export const SiteContext = createContext<SiteModel | null>(null)

export const useSite = (): SiteModel => {
  const site = useContext(SiteContext)
  if (!site) throw new Error('useSite() was called outside <SiteContext.Provider>')
  return site
}
