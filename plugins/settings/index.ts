// Settings: GET /settings.json, assembled from the flags each enabled plugin contributes.
import { definePlugin } from '../../api/plugin.ts'
import { REMEMBER_ME_OPTIONS } from './constants.ts'
import { AccountSettingSchema } from './entities/AccountSetting.ts'
import { OrganizationSettingSchema } from './entities/OrganizationSetting.ts'
import { routes } from './routes.ts'

export {
  EDITION,
  isSupportedLocale,
  KEYWARD_VERSION,
  LOCALE_OPTIONS,
  ORGANIZATION_LOCALE,
} from './constants.ts'
export {
  accountSettingResponse,
  organizationSettingResponse,
  organizationSettingRowResponse,
  storedSettingFields,
} from './schemas.ts'
export { organizationLocale } from './service.ts'
export * from './store.ts'

export default definePlugin({
  name: 'settings',
  entities: [OrganizationSettingSchema, AccountSettingSchema],
  routes,
  settings: () => ({
    public: { rememberMe: { options: REMEMBER_ME_OPTIONS } },
    user: { rememberMe: { enabled: true, version: '2.0.0' } },
  }),
})
