// The islands a page may hold; the browser keeps one component per name.
export type IslandName =
  | 'navbar'
  | 'announcement'
  | 'sidebar'
  | 'toc'
  | 'search'
  /** In Markdown content (cli/markdown/rehype-islands.ts). */
  | 'tabs'
  | 'copy'
  | 'mermaid'
  /** In the API reference (templates/api/ApiReference.tsx). */
  | 'api-filter'
