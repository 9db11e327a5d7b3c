// Settings: GET /settings.json, assembled from the flags each enabled plugin contributes.
import { definePlugin } from '../../api/plugin.ts'
import { LOCALE_OPTIONS, REMEMBER_ME_OPTIONS } from './constants.ts'
import { AccountSettingSchema } from './entities/AccountSetting.ts'
import { OrganizationSettingSchema } from './entities/OrganizationSetting.ts'
import { routes } from './routes.ts'

export { KEYWARD_VERSION } from './constants.ts'
export * from './store.ts'

export default definePlugin({
  name: 'settings',
  entities: [OrganizationSettingSchema, AccountSettingSchema],
  routes,
  settings: () => ({
    public: {
      locale: { options: LOCALE_OPTIONS },
      rememberMe: { options: REMEMBER_ME_OPTIONS },
    },
    user: {
      locale: { enabled: true, version: '3.2.0' },
      rememberMe: { enabled: true, version: '2.0.0' },
    },
  }),
})
