// The page being shown, shared by islands: the server renders with the page's own location;
// the browser updates it on every client navigation so the navbar and its menus follow.
import { useSyncExternalStore } from 'react'
import type { PageVariants } from '../model/site-model.ts'

export interface PageLocation {
  route: string
  /** The sidebar of the page's guide, if it has one. */
  sidebarId?: string
  /** The page in the site's other locales and versions, if it has some. */
  variants?: PageVariants
}

let current: PageLocation | undefined
const listeners = new Set<() => void>()

export const setPageLocation = (location: PageLocation): void => {
  current = location
  for (const listener of listeners) listener()
}

const subscribe = (listener: () => void) => {
  listeners.add(listener)
  return () => listeners.delete(listener)
}

/** The current page; `rendered` is the one the server rendered this document for. */
export const usePageLocation = (rendered: PageLocation): PageLocation =>
  useSyncExternalStore(
    subscribe,
    () => current ?? rendered,
    () => rendered,
  )
