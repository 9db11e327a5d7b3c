// Routes of the MFA plugin: verification (§6.2) and the required-MFA error page, each user's
// device setup, and the organisation settings.
import { settingsRoutes, setupRoutes } from './setup-routes.ts'
import { verifyRoutes } from './verify-routes.ts'

export const routes = [...verifyRoutes, ...setupRoutes, ...settingsRoutes]
