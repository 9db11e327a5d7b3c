// The API reference's layout: its tag groups in order, each operation's place, label and anchor,
// and the shared schemas' anchors. The page is rendered from it, and it is written as JSON
// beside the page for other tools.
import type { OpenApiDocument, Operation } from '../../model/openapi.ts'
import { METHODS } from '../../model/openapi.ts'

export interface OperationRef {
  anchor: string
  method: string
  path: string
  summary: string
  operationId?: string
  tag: string
}

export interface TagGroup {
  name: string
  label: string
  anchor: string
  operations: OperationRef[]
}

export interface ApiLayout {
  route: string
  title: string
  version: string
  tags: TagGroup[]
  schemas: { name: string; anchor: string }[]
  securitySchemes: { name: string; anchor: string }[]
}

const slug = (text: string) =>
  text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '')

/** `POST /resources/{id}.json` → `post-resources-id-json`: readable, and unique per operation. */
export const operationAnchor = (method: string, path: string) => slug(`${method} ${path}`)
export const tagAnchor = (tag: string) => `tag-${slug(tag)}`
export const schemaAnchor = (name: string) => `schema-${slug(name)}`
export const securityAnchor = (name: string) => `security-${slug(name)}`

/** `password-policies` → `Password policies`. */
export const tagLabel = (tag: string) => {
  const words = tag.replace(/[-_]+/g, ' ')
  return words.charAt(0).toUpperCase() + words.slice(1)
}

/** Every operation of the document in path order, with its method and path. */
export const operationsOf = (document: OpenApiDocument) =>
  Object.entries(document.paths).flatMap(([path, item]) =>
    METHODS.flatMap((method) =>
      item[method] ? [{ method, path, operation: item[method] as Operation }] : [],
    ),
  )

export const buildLayout = (document: OpenApiDocument, route: string): ApiLayout => {
  const groups = new Map<string, TagGroup>()
  const group = (name: string) => {
    let found = groups.get(name)
    if (!found) {
      found = { name, label: tagLabel(name), anchor: tagAnchor(name), operations: [] }
      groups.set(name, found)
    }
    return found
  }
  // Declared tags first, in their order; then any tag only operations name.
  for (const tag of document.tags ?? []) group(tag.name)
  for (const { method, path, operation } of operationsOf(document)) {
    const tag = operation.tags?.[0] ?? 'other'
    group(tag).operations.push({
      anchor: operationAnchor(method, path),
      method: method.toUpperCase(),
      path,
      summary: operation.summary ?? '',
      operationId: operation.operationId,
      tag,
    })
  }
  return {
    route,
    title: document.info.title,
    version: document.info.version,
    tags: [...groups.values()].filter((g) => g.operations.length > 0),
    schemas: Object.keys(document.components?.schemas ?? {}).map((name) => ({
      name,
      anchor: schemaAnchor(name),
    })),
    securitySchemes: Object.keys(document.components?.securitySchemes ?? {}).map((name) => ({
      name,
      anchor: securityAnchor(name),
    })),
  }
}

/** What the filter matches an operation against. */
export const filterText = (op: OperationRef) =>
  `${op.method} ${op.path} ${op.summary} ${op.operationId ?? ''} ${op.tag}`.toLowerCase()
