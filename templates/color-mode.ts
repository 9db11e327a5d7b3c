// Colour mode: the reader's choice (light, dark or system) is stored locally, applied before
// first paint by the inline head script, followed live when it is 'system', and synchronised
// across tabs through the storage event.
import { useEffect, useSyncExternalStore } from 'react'
import { storage } from './storage.ts'

export type ColorChoice = 'light' | 'dark' | 'system'
export type ColorMode = 'light' | 'dark'

export const COLOR_MODE_KEY = 'theme'
const CHOICES: readonly string[] = ['light', 'dark', 'system']
const DARK_QUERY = '(prefers-color-scheme: dark)'

export interface ColorModeOptions {
  defaultMode: ColorMode
  respectPrefersColorScheme: boolean
}

/** The inline script in the head: the same rules as `storedChoice` and `apply`, before paint. */
export const colorModeHeadScript = ({ defaultMode, respectPrefersColorScheme }: ColorModeOptions) =>
  `(function(){var d=document.documentElement,c;try{c=localStorage.getItem('${COLOR_MODE_KEY}')}catch(e){}` +
  `if(c!=='light'&&c!=='dark'&&c!=='system')c=${respectPrefersColorScheme}?'system':'${defaultMode}';` +
  `d.dataset.themeChoice=c;d.dataset.theme=c==='system'?(matchMedia('${DARK_QUERY}').matches?'dark':'light'):c})()`

/** The stored choice; an unexpected stored value is reported and replaced by the default. */
export const storedChoice = (options: ColorModeOptions): ColorChoice => {
  const value = storage.get(COLOR_MODE_KEY)
  if (value !== null && !CHOICES.includes(value))
    console.error(`Unexpected colour mode value "${value}" in localStorage; using the default.`)
  if (value !== null && CHOICES.includes(value)) return value as ColorChoice
  return options.respectPrefersColorScheme ? 'system' : options.defaultMode
}

const systemMode = (): ColorMode => (matchMedia(DARK_QUERY).matches ? 'dark' : 'light')

/** The toggle's next choice: light, dark, system in turn when the OS preference is respected. */
export const nextChoice = (
  choice: ColorChoice,
  mode: ColorMode,
  respectPrefersColorScheme: boolean,
): ColorChoice => {
  if (!respectPrefersColorScheme) return mode === 'dark' ? 'light' : 'dark'
  return choice === 'light' ? 'dark' : choice === 'dark' ? 'system' : 'light'
}

const listeners = new Set<() => void>()
let options: ColorModeOptions | undefined

const apply = (choice: ColorChoice) => {
  const root = document.documentElement
  root.dataset.themeChoice = choice
  root.dataset.theme = choice === 'system' ? systemMode() : choice
  for (const listener of listeners) listener()
}

/** Starts following other tabs and the OS preference (once per page). */
const follow = (opts: ColorModeOptions) => {
  if (options) return
  options = opts
  storedChoice(opts) // reports an unexpected stored value once
  addEventListener('storage', (event) => {
    if (event.key === COLOR_MODE_KEY || event.key === null) apply(storedChoice(opts))
  })
  matchMedia(DARK_QUERY).addEventListener('change', () => {
    if (document.documentElement.dataset.themeChoice === 'system') apply('system')
  })
}

export const setChoice = (choice: ColorChoice): void => {
  storage.set(COLOR_MODE_KEY, choice)
  apply(choice)
}

const subscribe = (listener: () => void) => {
  listeners.add(listener)
  return () => listeners.delete(listener)
}
const snapshot = () =>
  `${document.documentElement.dataset.themeChoice}:${document.documentElement.dataset.theme}`

/** The current choice and mode (the default until hydrated, as the server rendered it). */
export const useColorMode = (
  opts: ColorModeOptions,
  hydrated: boolean,
): { choice: ColorChoice; mode: ColorMode } => {
  const value = useSyncExternalStore(
    subscribe,
    snapshot,
    () => `${opts.defaultMode}:${opts.defaultMode}`,
  )
  useEffect(() => follow(opts), [opts])
  if (!hydrated) return { choice: opts.defaultMode, mode: opts.defaultMode }
  const [choice, mode] = value.split(':') as [ColorChoice, ColorMode]
  return { choice, mode }
}
