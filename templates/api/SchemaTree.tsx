// A JSON Schema as a readable tree: one row per property with its type, nullability, whether it
// is required, its limits in words, its allowed values and description; nested objects, lists of
// objects and variants (`oneOf`, such as v4 and v5 resources) open in native <details>, so the
// tree works without JavaScript. Rendered at build time only.
import type { JsonSchema } from '../../model/openapi.ts'
import {
  constraintsOf,
  hasChildren,
  refName,
  typeLabel,
  unwrapNullable,
  valuesOf,
  variantsOf,
} from './describe-schema.ts'
import { schemaAnchor } from './layout.ts'

/** Deeper than this, a tree says "…" (schemas from zod are finite, this guards odd documents). */
const MAX_DEPTH = 8

const literal = (value: unknown) => JSON.stringify(value)

function Facts({
  schema,
  nullable,
  required,
}: {
  schema: JsonSchema
  nullable: boolean
  required?: boolean
}) {
  const limits = constraintsOf(schema)
  return (
    <>
      {' '}
      {schema.$ref ? (
        <a className="schema__type" href={`#${schemaAnchor(refName(schema.$ref))}`}>
          {refName(schema.$ref)}
        </a>
      ) : (
        <span className="schema__type">{typeLabel(schema)}</span>
      )}
      {nullable ? <span className="schema__flag">nullable</span> : null}
      {required ? <span className="schema__flag schema__flag--required">required</span> : null}
      {limits.length ? <span className="schema__limits">{limits.join(', ')}</span> : null}
    </>
  )
}

function Details({ schema }: { schema: JsonSchema }) {
  const values = valuesOf(schema)
  return (
    <>
      {schema.description ? <p className="schema__description">{schema.description}</p> : null}
      {values ? (
        <p className="schema__values">
          {values.length === 1 ? 'Value: ' : 'One of: '}
          {values.map((value, i) => (
            <span key={literal(value)}>
              {i ? ', ' : ''}
              <code>{literal(value)}</code>
            </span>
          ))}
        </p>
      ) : null}
      {schema.default !== undefined ? (
        <p className="schema__values">
          Default: <code>{literal(schema.default)}</code>
        </p>
      ) : null}
    </>
  )
}

function Property({
  name,
  schema: raw,
  required,
  depth,
}: {
  name: string
  schema: JsonSchema
  required: boolean
  depth: number
}) {
  const { schema, nullable } = unwrapNullable(raw)
  const head = (
    <>
      <code className="schema__name">{name}</code>
      <Facts schema={schema} nullable={nullable} required={required} />
    </>
  )
  if (!hasChildren(schema) || depth >= MAX_DEPTH)
    return (
      <li className="schema__property">
        <div className="schema__head">{head}</div>
        <Details schema={schema} />
      </li>
    )
  return (
    <li className="schema__property">
      <details className="schema__nested">
        <summary className="schema__head">{head}</summary>
        <Details schema={schema} />
        <SchemaBody schema={schema} depth={depth + 1} />
      </details>
    </li>
  )
}

/** The inside of a schema: its properties, its list items or its variants. */
function SchemaBody({ schema, depth }: { schema: JsonSchema; depth: number }) {
  const variants = variantsOf(schema)
  if (variants)
    return (
      <ol className="schema__variants">
        {variants.map((variant, i) => {
          const { schema: inner, nullable } = unwrapNullable(variant)
          return (
            <li key={i}>
              <details className="schema__nested" open={depth === 0}>
                <summary className="schema__head">
                  {inner.title ?? `Variant ${i + 1}`}
                  <Facts schema={inner} nullable={nullable} />
                </summary>
                <Details schema={inner} />
                <SchemaBody schema={inner} depth={depth + 1} />
              </details>
            </li>
          )
        })}
      </ol>
    )
  if (schema.items) {
    const { schema: items } = unwrapNullable(schema.items)
    return hasChildren(items) ? <SchemaBody schema={items} depth={depth} /> : null
  }
  const properties = Object.entries(schema.properties ?? {})
  if (!properties.length) return null
  const required = new Set(schema.required ?? [])
  return (
    <ul className="schema">
      {properties.map(([name, property]) => (
        <Property
          key={name}
          name={name}
          schema={property}
          required={required.has(name)}
          depth={depth}
        />
      ))}
    </ul>
  )
}

/** A whole schema: its one-line description, then its tree. */
export function SchemaTree({ schema: raw }: { schema: JsonSchema }) {
  const { schema, nullable } = unwrapNullable(raw)
  return (
    <div className="schema-tree">
      <p className="schema__head schema__root">
        <Facts schema={schema} nullable={nullable} />
      </p>
      <Details schema={schema} />
      <SchemaBody schema={schema} depth={0} />
    </div>
  )
}
