// The themes a user may pick: the ones the official clients ship stylesheets for. Each has a
// small preview picture drawn here from its colours (served under /img/themes/).
import { v5 as uuidv5 } from 'uuid'

const NAMESPACE = '6f5d9d8e-4b0c-4f4e-9a55-2d1f0b9d3c71'

/** Background, panel, text and accent colours of each theme's preview. */
const PALETTES: Record<string, [string, string, string, string]> = {
  default: ['#f7f7f7', '#ffffff', '#333333', '#2c7be5'],
  midgar: ['#1e1e1e', '#2b2b2b', '#e6e6e6', '#3d9bf0'],
  solarized_light: ['#fdf6e3', '#eee8d5', '#586e75', '#268bd2'],
  solarized_dark: ['#002b36', '#073642', '#93a1a1', '#2aa198'],
}

export const THEME_NAMES = Object.keys(PALETTES)

export const themeId = (name: string) => uuidv5(`theme.id.${name}`, NAMESPACE)

export const listThemes = (appUrl: string) =>
  THEME_NAMES.map((name) => ({
    id: themeId(name),
    name,
    preview: new URL(`img/themes/${name}.svg`, appUrl).href,
  }))

/** A 200×120 sketch of the workspace in the theme's colours. */
export const themePreview = (name: string): string | undefined => {
  const palette = PALETTES[name]
  if (!palette) return undefined
  const [background, panel, text, accent] = palette
  return `<svg xmlns="http://www.w3.org/2000/svg" width="200" height="120" viewBox="0 0 200 120">
<rect width="200" height="120" fill="${background}"/>
<rect x="8" y="8" width="44" height="10" rx="2" fill="${accent}"/>
<rect x="60" y="8" width="132" height="10" rx="2" fill="${panel}"/>
<rect x="60" y="26" width="132" height="86" rx="2" fill="${panel}"/>
${[0, 1, 2, 3, 4].map((i) => `<rect x="68" y="${34 + i * 15}" width="${100 - i * 9}" height="6" rx="1" fill="${text}" opacity="0.7"/>`).join('\n')}
${[0, 1, 2].map((i) => `<rect x="8" y="${28 + i * 12}" width="40" height="6" rx="1" fill="${text}" opacity="0.5"/>`).join('\n')}
</svg>`
}
