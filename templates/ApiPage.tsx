// The API reference page: its content comes rendered from the build (templates/api/), so the
// browser's code holds nothing of it; the `markdown` class lets client navigation hydrate its
// islands (the filter and the copy buttons) as it does a doc's.
export function ApiPage({ html }: { html: string }) {
  return (
    <main id="main-content" className="api-page" tabIndex={-1}>
      <div className="markdown" dangerouslySetInnerHTML={{ __html: html }} />
    </main>
  )
}
