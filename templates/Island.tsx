// An island: a part of the server-rendered page that the browser hydrates with the same
// component and props (templates/client/islands.tsx). Everything outside islands stays static
// HTML, so pages read fine without JavaScript and only interactive parts ship code.
import type { ReactNode } from 'react'
import type { IslandName } from './island-names.ts'

export function Island<P extends object>({
  name,
  props,
  children,
}: {
  name: IslandName
  /** What the browser hydrates the island with: the props the children were rendered with. */
  props: P
  children: ReactNode
}) {
  return (
    <div data-island={name} data-props={JSON.stringify(props)}>
      {children}
    </div>
  )
}
