// An island: a part of the server-rendered page that the browser hydrates with the same
// component and props (templates/client/islands.tsx). Everything outside islands stays static
// HTML, so pages read fine without JavaScript and only interactive parts ship code.
import type { ReactNode } from 'react'
import type { IslandName } from './island-names.ts'

export function Island<P extends object>({
  name,
  props,
  className,
  children,
}: {
  name: IslandName
  /** What the browser hydrates the island with: the props the children were rendered with. */
  props: P
  className?: string
  children: ReactNode
}) {
  return (
    <div className={className} data-island={name} data-props={JSON.stringify(props)}>
      {children}
    </div>
  )
}
