// Routes of the MFA plugin: verification (§6.2) and the required-MFA error page, each user's
// device setup, the organisation settings, and Duo's routes (refused: Duo is not offered).
import { duoRoutes } from './duo-routes.ts'
import { settingsRoutes, setupRoutes } from './setup-routes.ts'
import { verifyRoutes } from './verify-routes.ts'

export const routes = [...verifyRoutes, ...setupRoutes, ...settingsRoutes, ...duoRoutes]
