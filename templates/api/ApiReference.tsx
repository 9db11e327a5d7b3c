// The API reference page's content, rendered at build time from the OpenAPI document and its
// layout: a navigation of tags and operations with the filter island, then each operation with
// its method, path, summary, description, security, parameters, request body, responses (schema
// trees and error envelopes), and its examples: the request as a `curl` command and the success
// response, each with a copy button. On wide screens the examples are a column beside the
// operation that stays in view while it is read (CSS only); narrower, they follow it. Every
// operation, body, response and shared schema has an anchor. Only the filter (which also marks
// the operation in view in the navigation) and the copy buttons hydrate.
import type { ReactNode } from 'react'
import type { MediaType, OpenApiDocument, Operation, Parameter } from '../../model/openapi.ts'
import { ApiFilter } from '../ApiFilter.tsx'
import { CopyButton } from '../CopyButton.tsx'
import { Island } from '../Island.tsx'
import { curlCommand } from './curl.ts'
import { constraintsOf, typeLabel, unwrapNullable } from './describe-schema.ts'
import {
  type ApiLayout,
  filterText,
  type OperationRef,
  schemaAnchor,
  securityAnchor,
} from './layout.ts'
import { SchemaTree } from './SchemaTree.tsx'

export interface ApiReferenceProps {
  document: OpenApiDocument
  layout: ApiLayout
  /** Guides beside the reference, shown above the operations. */
  guides: { label: string; href: string }[]
  /** Addresses of the document and the layout JSON. */
  files: { document: string; layout: string }
}

/** Text with `code` spans, as the route declarations write them. */
export function Inline({ text }: { text: string }) {
  return <>{text.split('`').map((part, i) => (i % 2 ? <code key={i}>{part}</code> : part))}</>
}

function Method({ method }: { method: string }) {
  const name = method.toUpperCase()
  return <span className={`api-method api-method--${name.toLowerCase()}`}>{name}</span>
}

/** Text for HTML content: only what the parser needs escaped (React also escapes quotes, which
 * JSON is full of, and the page is mostly JSON examples). */
const escapeText = (text: string) =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;')

function CodeBlock({ title, code, copy }: { title?: ReactNode; code: string; copy?: boolean }) {
  return (
    <div className="code-block">
      {title ? <div className="code-block__title">{title}</div> : null}
      <div className="code-block__body">
        {/* biome-ignore lint/a11y/noNoninteractiveTabindex: a wide example scrolls; the keyboard must reach it */}
        <pre tabIndex={0}>
          <code className="hljs" dangerouslySetInnerHTML={{ __html: escapeText(code) }} />
        </pre>
        {copy ? (
          <Island name="copy" props={{}}>
            <CopyButton />
          </Island>
        ) : null}
      </div>
    </div>
  )
}

const json = (value: unknown) => JSON.stringify(value, null, 2)

/**
 * An error example with the header fields that tell errors apart (the others are as in every
 * answer, and in the OpenAPI document): a page of a hundred operations stays light.
 */
const shortEnvelope = (example: unknown) => {
  const envelope = example as { header?: Record<string, unknown>; body?: unknown } | undefined
  if (!envelope?.header) return example
  const { status, message, code } = envelope.header
  return { header: { status, message, code }, body: envelope.body }
}

const SECURITY_LABELS: Record<string, string> = {
  gpgAuth: 'cookie session',
  csrfToken: 'CSRF token',
  jwt: 'bearer token',
}

function Security({ operation }: { operation: Operation }) {
  const requirements = operation.security ?? []
  if (!requirements.length) return <p className="api-op__security">Public: no authentication.</p>
  return (
    <p className="api-op__security">
      {'Authentication: '}
      {requirements.map((requirement, i) => (
        <span key={Object.keys(requirement).join()}>
          {i ? ' or ' : ''}
          {Object.keys(requirement).map((scheme, j) => (
            <span key={scheme}>
              {j ? ' with its ' : ''}
              <a href={`#${securityAnchor(scheme)}`}>{SECURITY_LABELS[scheme] ?? scheme}</a>
            </span>
          ))}
        </span>
      ))}
      .
    </p>
  )
}

function Parameters({ parameters }: { parameters: Parameter[] }) {
  if (!parameters.length) return null
  return (
    <>
      <h4>Parameters</h4>
      <table className="api-params">
        <thead>
          <tr>
            <th>Name</th>
            <th>In</th>
            <th>Type</th>
            <th>Description</th>
          </tr>
        </thead>
        <tbody>
          {parameters.map((parameter) => {
            const { schema, nullable } = unwrapNullable(parameter.schema ?? {})
            const limits = constraintsOf(schema)
            const values = schema.enum
            return (
              <tr key={`${parameter.in}:${parameter.name}`}>
                <td>
                  <code>{parameter.name}</code>
                  {parameter.required ? <span className="schema__flag">required</span> : null}
                </td>
                <td>{parameter.in}</td>
                <td>
                  {typeLabel(schema)}
                  {nullable ? ', nullable' : ''}
                  {limits.length ? `, ${limits.join(', ')}` : ''}
                  {values ? `: ${values.map((v) => JSON.stringify(v)).join(', ')}` : ''}
                </td>
                <td>
                  {parameter.description ? <Inline text={parameter.description} /> : null}
                  {parameter.example !== undefined ? (
                    <>
                      {parameter.description ? ' ' : ''}
                      Example: <code>{String(parameter.example)}</code>
                    </>
                  ) : null}
                </td>
              </tr>
            )
          })}
        </tbody>
      </table>
    </>
  )
}

/** The envelope's `body` schema when the schema is the envelope: what a reader wants to see. */
const envelopeBody = (media: MediaType | undefined) => {
  const properties = media?.schema?.properties
  return properties?.header?.$ref && properties.body ? properties.body : media?.schema
}

function Body({
  id,
  title,
  media,
  example = true,
  children,
}: {
  id: string
  title: ReactNode
  media?: MediaType
  /** Whether the example goes here (a success response's is in the examples column). */
  example?: boolean
  children?: ReactNode
}) {
  const schema = envelopeBody(media)
  const hasSchema = schema && Object.keys(schema).length > 0
  return (
    <div className="api-op__body" id={id}>
      <h4>
        <a className="hash-link" href={`#${id}`} aria-label="Direct link">
          #
        </a>
        {title}
      </h4>
      {children}
      {hasSchema ? <SchemaTree schema={schema} /> : <p>Any JSON value (no schema declared yet).</p>}
      {example && media?.example !== undefined ? (
        <CodeBlock title="Example" code={json(media.example)} />
      ) : null}
    </div>
  )
}

function OperationView({ op, operation }: { op: OperationRef; operation: Operation }) {
  const responses = Object.entries(operation.responses ?? {})
  const success = responses.filter(([status]) => status.startsWith('2'))
  const errors = responses.filter(([status]) => !status.startsWith('2'))
  const body = operation.requestBody?.content['application/json']
  const successExamples = success.flatMap(([status, response]) => {
    const example = response.content?.['application/json']?.example
    return example === undefined ? [] : [{ status, example }]
  })
  return (
    <section className="api-op" id={op.anchor} data-api-op={filterText(op)}>
      <div className="api-op__main">
        <h3 className="api-op__title">
          <a className="hash-link" href={`#${op.anchor}`} aria-label="Direct link">
            #
          </a>
          <Method method={op.method} /> <code className="api-op__path">{op.path}</code>
        </h3>
        <p className="api-op__summary">
          <Inline text={op.summary} />
        </p>
        {operation.description ? (
          <p>
            <Inline text={operation.description} />
          </p>
        ) : null}
        <Security operation={operation} />
        <Parameters parameters={operation.parameters ?? []} />
        {body ? <Body id={`${op.anchor}-request`} title="Request body" media={body} /> : null}
        {success.map(([status, response]) => (
          <Body
            key={status}
            id={`${op.anchor}-${status}`}
            title={`Response ${status}`}
            media={response.content?.['application/json']}
            example={false}
          >
            <p>
              <Inline text={response.description} /> The body sits in the envelope's{' '}
              <code>body</code>; see the <a href={`#${schemaAnchor('header')}`}>header</a>.
            </p>
          </Body>
        ))}
        {errors.length ? <h4>Errors</h4> : null}
        {errors.map(([status, response]) => {
          const example = shortEnvelope(response.content?.['application/json']?.example)
          return (
            <details className="api-op__error" id={`${op.anchor}-${status}`} key={status}>
              <summary>
                <strong>{status}</strong> <Inline text={response.description} />
              </summary>
              {example !== undefined ? <CodeBlock code={json(example)} /> : null}
            </details>
          )
        })}
      </div>
      <div className="api-op__examples">
        <CodeBlock
          title={
            <>
              Request <Method method={op.method} />{' '}
              <span className="api-op__example-path">{op.path}</span>
            </>
          }
          code={curlCommand(op.method.toLowerCase(), op.path, operation)}
          copy
        />
        {successExamples.map(({ status, example }) => (
          <CodeBlock key={status} title={`Response ${status}`} code={json(example)} copy />
        ))}
      </div>
    </section>
  )
}

function Navigation({ layout, guides }: Pick<ApiReferenceProps, 'layout' | 'guides'>) {
  return (
    <nav className="api-ref__nav" aria-label="API operations">
      <Island name="api-filter" props={{}}>
        <ApiFilter />
      </Island>
      {guides.length ? (
        <ul className="api-ref__guides">
          {guides.map((guide) => (
            <li key={guide.href}>
              <a href={guide.href}>{guide.label}</a>
            </li>
          ))}
        </ul>
      ) : null}
      <ul className="api-ref__tags">
        {layout.tags.map((tag) => (
          <li key={tag.name} data-api-tag="">
            <a className="api-ref__tag" href={`#${tag.anchor}`}>
              {tag.label}
            </a>
            <ul>
              {tag.operations.map((op) => (
                <li key={op.anchor} data-api-op={filterText(op)}>
                  <a href={`#${op.anchor}`} title={op.summary}>
                    <Method method={op.method} /> {op.path}
                  </a>
                </li>
              ))}
            </ul>
          </li>
        ))}
        <li>
          <a className="api-ref__tag" href="#schemas">
            Schemas
          </a>
        </li>
      </ul>
    </nav>
  )
}

export function ApiReference({ document, layout, guides, files }: ApiReferenceProps) {
  const schemes = document.components?.securitySchemes ?? {}
  const schemas = document.components?.schemas ?? {}
  return (
    <div className="api-ref">
      <Navigation layout={layout} guides={guides} />
      <div className="api-ref__content">
        <h1>{layout.title}</h1>
        {document.info.description ? (
          <p>
            <Inline text={document.info.description} />
          </p>
        ) : null}
        <p>
          Version {layout.version}. Download the <a href={files.document}>OpenAPI document</a> or
          the page's <a href={files.layout}>layout</a>. The examples use the shell variables{' '}
          <code>KEYWARD_URL</code> (the server's address) and <code>KEYWARD_TOKEN</code> (an access
          token), or <code>KEYWARD_SESSION</code> and <code>KEYWARD_CSRF</code> for a cookie
          session. Error examples show the header's <code>status</code>, <code>message</code> and{' '}
          <code>code</code>; its other fields are as in every{' '}
          <a href={`#${schemaAnchor('header')}`}>header</a>.
        </p>
        <section id="authentication">
          <h2>Authentication</h2>
          <dl className="api-security">
            {Object.entries(schemes).map(([name, scheme]) => (
              <div key={name} id={securityAnchor(name)}>
                <dt>
                  {SECURITY_LABELS[name] ?? name}{' '}
                  <code>
                    {scheme.type === 'http'
                      ? `Authorization: Bearer`
                      : `${scheme.in} ${scheme.name}`}
                  </code>
                </dt>
                <dd>{scheme.description ? <Inline text={scheme.description} /> : null}</dd>
              </div>
            ))}
          </dl>
        </section>
        {layout.tags.map((tag) => (
          <section key={tag.name} id={tag.anchor} className="api-tag" data-api-tag="">
            <h2>{tag.label}</h2>
            {tag.operations.map((op) => (
              <OperationView
                key={op.anchor}
                op={op}
                operation={document.paths[op.path][op.method.toLowerCase()]}
              />
            ))}
          </section>
        ))}
        <section id="schemas">
          <h2>Schemas</h2>
          {Object.entries(schemas).map(([name, schema]) => (
            <div key={name} id={schemaAnchor(name)} className="api-schema">
              <h3>
                <a className="hash-link" href={`#${schemaAnchor(name)}`} aria-label="Direct link">
                  #
                </a>
                {name}
              </h3>
              <SchemaTree schema={schema} />
            </div>
          ))}
        </section>
      </div>
    </div>
  )
}
