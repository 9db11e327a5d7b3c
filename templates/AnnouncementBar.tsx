// The announcement bar from the site config; a closeable bar stays closed once dismissed (the
// head script hides a dismissed bar before first paint).
import { useState } from 'react'
import type { SiteConfig } from '../model/site-config.ts'
import { storage } from './storage.ts'
import { useHydrated } from './use-hydrated.ts'

type Announcement = NonNullable<SiteConfig['announcementBar']>

export const announcementKey = (id: string) => `docs-announcement-dismissed-${id}`

export function AnnouncementBar({ bar }: { bar: Announcement }) {
  const hydrated = useHydrated()
  const [closed, setClosed] = useState(false)
  const dismissed = closed || (hydrated && storage.get(announcementKey(bar.id)) === 'true')
  if (dismissed && bar.isCloseable) return null
  return (
    <section className="announcement" aria-label="Announcement">
      <div className="announcement__content" dangerouslySetInnerHTML={{ __html: bar.content }} />
      {bar.isCloseable ? (
        <button
          type="button"
          className="announcement__close"
          aria-label="Close the announcement"
          onClick={() => {
            storage.set(announcementKey(bar.id), 'true')
            setClosed(true)
          }}
        >
          ×
        </button>
      ) : null}
    </section>
  )
}
