// The colour-mode toggle: light and dark in turn, or light, dark and system when the site
// respects the OS preference.
import { type ColorChoice, nextChoice, setChoice, useColorMode } from './color-mode.ts'
import { useSite } from './SiteContext.tsx'
import { useHydrated } from './use-hydrated.ts'

const LABELS: Record<ColorChoice, string> = {
  light: 'light mode',
  dark: 'dark mode',
  system: 'system mode',
}

export function ColorModeToggle() {
  const { colorMode } = useSite().config
  const hydrated = useHydrated()
  const { choice, mode } = useColorMode(colorMode, hydrated)
  const next = nextChoice(choice, mode, colorMode.respectPrefersColorScheme)
  const label = `Switch to ${LABELS[next]} (currently ${LABELS[choice]})`
  return (
    <button
      type="button"
      className="color-mode-toggle"
      aria-label={label}
      title={label}
      data-choice={choice}
      disabled={!hydrated}
      onClick={() => setChoice(next)}
    >
      <span
        aria-hidden="true"
        className={`color-mode-toggle__icon color-mode-toggle__icon--${choice}`}
      />
    </button>
  )
}
