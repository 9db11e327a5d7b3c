// The chosen tab of each tab group (`groupId`), shared by every tab list of the group on the
// page and remembered in localStorage for later pages.
import { useCallback, useEffect, useState } from 'react'
import { storage } from './storage.ts'

const keyOf = (group: string) => `docs-tabs-${group}`
const listeners = new Map<string, Set<(value: string) => void>>()

export const chooseTab = (group: string, value: string): void => {
  storage.set(keyOf(group), value)
  for (const listener of listeners.get(group) ?? []) listener(value)
}

/**
 * The selected value of a tab list: the first tab until hydrated (as the server rendered it),
 * then the group's remembered choice when the list has it.
 */
export const useTabChoice = (
  group: string | undefined,
  values: string[],
): [string, (value: string) => void] => {
  const [selected, setSelected] = useState(values[0])
  useEffect(() => {
    if (!group) return
    const follow = (value: string) => {
      if (values.includes(value)) setSelected(value)
    }
    follow(storage.get(keyOf(group)) ?? '')
    const set = listeners.get(group) ?? new Set()
    listeners.set(group, set)
    set.add(follow)
    return () => {
      set.delete(follow)
    }
  }, [group, values])
  const choose = useCallback(
    (value: string) => (group ? chooseTab(group, value) : setSelected(value)),
    [group],
  )
  return [selected, choose]
}
