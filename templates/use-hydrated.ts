// False during the server render and the hydrating render, true afterwards. Islands read
// browser-only state (storage, media queries) only once this is true, so their first render
// matches the server HTML and the change is a normal re-render.
import { useEffect, useState } from 'react'

export const useHydrated = (): boolean => {
  const [hydrated, setHydrated] = useState(false)
  useEffect(() => setHydrated(true), [])
  return hydrated
}
