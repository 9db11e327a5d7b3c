// The tab list of a tab set from the Markdown (an island): click or arrow keys, Home and End
// select a tab; the panels, static HTML beside it, follow; tab sets of one group stay in step.
import { type KeyboardEvent, useLayoutEffect, useMemo, useRef } from 'react'
import { useTabChoice } from './tab-choice.ts'

export interface TabListProps {
  groupId?: string
  tabs: { id: string; value: string; label: string }[]
}

export function TabList({ groupId, tabs }: TabListProps) {
  const values = useMemo(() => tabs.map((tab) => tab.value), [tabs])
  const [selected, choose] = useTabChoice(groupId, values)
  const list = useRef<HTMLDivElement>(null)

  // Before paint, so no frame shows a tab selected over another tab's panel.
  useLayoutEffect(() => {
    const set = list.current?.closest('.tabs')
    for (const panel of set?.querySelectorAll<HTMLElement>(':scope > [role="tabpanel"]') ?? [])
      panel.toggleAttribute('data-inactive', panel.dataset.value !== selected)
  }, [selected])

  const onKeyDown = (event: KeyboardEvent) => {
    const i = values.indexOf(selected)
    const next: Record<string, number> = {
      ArrowRight: (i + 1) % values.length,
      ArrowLeft: (i - 1 + values.length) % values.length,
      Home: 0,
      End: values.length - 1,
    }
    if (!(event.key in next)) return
    event.preventDefault()
    const value = values[next[event.key]]
    choose(value)
    list.current?.querySelector<HTMLElement>(`[data-value="${CSS.escape(value)}"]`)?.focus()
  }

  return (
    <div role="tablist" className="tabs__list" ref={list} onKeyDown={onKeyDown}>
      {tabs.map((tab) => {
        const active = tab.value === selected
        return (
          <button
            key={tab.value}
            type="button"
            role="tab"
            id={tab.id}
            aria-controls={`${tab.id}-panel`}
            aria-selected={active}
            tabIndex={active ? 0 : -1}
            data-value={tab.value}
            className="tabs__tab"
            onClick={() => choose(tab.value)}
          >
            <span dangerouslySetInnerHTML={{ __html: tab.label }} />
          </button>
        )
      })}
    </div>
  )
}
