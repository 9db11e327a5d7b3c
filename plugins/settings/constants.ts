// Values /settings.json offers: version, edition, locales and remember-me durations.

export { KEYWARD_VERSION } from '../../api/version.ts'

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

/** Whether `locale` is one of the languages the clients ship. */
export const isSupportedLocale = (locale: unknown): locale is string =>
  typeof locale === 'string' && LOCALE_OPTIONS.some((option) => option.locale === locale)

/** The organisation setting holding the language chosen by an administrator. */
export const ORGANIZATION_LOCALE = 'locale'

/**
 * The edition /settings.json names. The client reads "ce" as "show upgrade teasers instead of
 * the password policy, passphrase policy and similar administration pages"; Keyward has those
 * pages and sells no upgrade, and every other feature is still gated by its own plugin flag, so
 * it names the edition whose pages it actually serves.
 */
export const EDITION = 'pro'
