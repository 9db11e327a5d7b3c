// What client navigation renders into `#page-root`: the page, inside a boundary that turns a
// rendering error into the crash screen ('This page crashed.', the error, 'Try again').
import { Component, type ReactNode } from 'react'
import type { PageModel, SiteModel } from '../../model/site-model.ts'
import { PageBody } from '../PageBody.tsx'
import { SiteContext } from '../SiteContext.tsx'
import { stringsFor } from '../strings.ts'
import { clientData } from './site-data.ts'

export const CRASH_TITLE = 'Page Error'

function PageCrash({ error, onRetry }: { error: Error; onRetry: () => void }) {
  const t = stringsFor(clientData().config, location.pathname)
  return (
    <main id="main-content" className="page-crash" tabIndex={-1} role="alert">
      <h1>{t('crash.title')}</h1>
      <button type="button" className="page-crash__retry" onClick={onRetry}>
        {t('crash.retry')}
      </button>
      <pre className="page-crash__error">{String(error?.message ?? error)}</pre>
    </main>
  )
}

class PageErrorBoundary extends Component<
  { onRetry: () => void; children: ReactNode },
  { error?: Error }
> {
  state: { error?: Error } = {}
  static getDerivedStateFromError(error: Error) {
    return { error }
  }
  componentDidCatch(error: Error) {
    console.error('This page crashed while rendering:', error)
    document.title = CRASH_TITLE
  }
  render() {
    const { error } = this.state
    return error ? <PageCrash error={error} onRetry={this.props.onRetry} /> : this.props.children
  }
}

export function PageRoot({
  site,
  page,
  onRetry,
}: {
  site: SiteModel
  page: PageModel
  onRetry: () => void
}) {
  return (
    <SiteContext.Provider value={site}>
      <PageErrorBoundary onRetry={onRetry}>
        <PageBody page={page} html={page.html} />
      </PageErrorBoundary>
    </SiteContext.Provider>
  )
}
