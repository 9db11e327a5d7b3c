// Locale: the languages on offer, the organisation's language and each user's own.
import { definePlugin } from '../../api/plugin.ts'
import { LOCALE_OPTIONS } from '../settings/index.ts'
import { routes } from './routes.ts'

export default definePlugin({
  name: 'locale',
  dependsOn: ['settings'],
  routes,
  settings: () => ({
    public: { locale: { options: LOCALE_OPTIONS } },
    user: { locale: { enabled: true, version: '3.2.0' } },
  }),
})
