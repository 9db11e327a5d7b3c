// Values /settings.json offers: the version, the locales and the remember-me durations.

export const KEYWARD_VERSION = { number: '5.0.0', name: 'Keyward' }

export const LOCALE_OPTIONS = [
  { locale: 'de-DE', label: 'Deutsch' },
  { locale: 'en-UK', label: 'English' },
  { locale: 'es-ES', label: 'Español' },
  { locale: 'fr-FR', label: 'Français' },
  { locale: 'it-IT', label: 'Italiano' },
  { locale: 'ja-JP', label: '日本語' },
  { locale: 'ko-KR', label: '한국어' },
  { locale: 'lt-LT', label: 'Lietuvių' },
  { locale: 'nl-NL', label: 'Nederlands' },
  { locale: 'pl-PL', label: 'Polski' },
  { locale: 'pt-BR', label: 'Português Brasil' },
  { locale: 'ro-RO', label: 'Română' },
  { locale: 'ru-RU', label: 'Pусский' },
  { locale: 'sv-SE', label: 'Svenska' },
  { locale: 'sl-SI', label: 'Slovenščina' },
  { locale: 'uk-UA', label: 'Українська' },
]

/** Seconds to label; -1 keeps the session until logout. */
export const REMEMBER_ME_OPTIONS = {
  '300': '5 minutes',
  '900': '15 minutes',
  '1800': '30 minutes',
  '3600': '1 hour',
  '-1': 'until I log out',
}
