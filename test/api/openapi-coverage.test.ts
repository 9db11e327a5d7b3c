// Every route of the assembled server appears in the OpenAPI document with what a reader needs:
// a summary and a description, its security, each parameter with an example, its body with an
// example the route accepts, and every response it can give with an example envelope.
import test from 'ava'
import type { z } from 'zod'
import { buildOpenApi } from '../../api/openapi.ts'
import type { Route } from '../../api/plugin.ts'
import { assemblePlugins } from '../../api/plugin-loader.ts'
import { plugins } from '../../plugins/index.ts'

/**
 * Routes that do not declare a `response` schema yet (their success body is documented as any
 * JSON). The list may only shrink: a route added without one fails, and so does an entry whose
 * route has gained one (remove it).
 */
const PENDING_RESPONSE_SCHEMAS = new Set<string>([
  'SettingsIndex.index GET /settings.json',
  'PermissionsView.viewAcoPermissions GET /permissions/resource/{id}.json',
  'ResourceTypesIndex.index GET /resource-types.json',
  'ResourceTypesView.view GET /resource-types/{id}.json',
  'ResourceTypesDelete.delete DELETE /resource-types/{id}.json',
  'ResourceTypesUpdate.update PUT /resource-types/{id}.json',
  'SecretsView.view GET /secrets/resource/{resourceId}.json',
  'SecretRevisionsSettingsGet.get GET /secret-revisions/settings.json',
  'FavoritesAdd.add POST /favorites/resource/{resourceId}.json',
  'FavoritesDelete.delete DELETE /favorites/{id}.json',
  'TagsIndex.index GET /tags.json',
  'ResourcesTagsAdd.addPost POST /tags/{id}.json',
  'TagsUpdate.update PUT /tags/{id}.json',
  'TagsDelete.delete DELETE /tags/{id}.json',
  'CommentsView.view GET /comments/resource/{resourceId}.json',
  'CommentsAdd.addPost POST /comments/resource/{resourceId}.json',
  'CommentsUpdate.update PUT /comments/{id}.json',
  'CommentsDelete.delete DELETE /comments/{id}.json',
  'MetadataTypesSettingsGet.get GET /metadata/types/settings.json',
  'MetadataKeysSettingsGet.get GET /metadata/keys/settings.json',
  'MetadataSettingsSetup.get GET /metadata/setup/settings.json',
  'MetadataSettingsGetStarted.get GET /metadata/settings/getting-started.json',
  'MetadataKeysIndex.index GET /metadata/keys.json',
  'ResourcesIndex.index GET /resources.json',
  'ResourcesView.view GET /resources/{id}.json',
  'ResourcesAdd.add POST /resources.json',
  'ResourcesUpdate.update PUT /resources/{id}.json',
  'ResourcesUpdate.update POST /resources/{id}.json',
  'ResourcesDelete.delete DELETE /resources/{id}.json',
  'Share.update PUT /share/resource/{id}.json',
  'Share.update POST /share/resource/{id}.json',
  'ShareSimulate.simulate POST /share/simulate/resource/{id}.json',
  'ShareSearch.searchArosToShareWith GET /share/search-aros.json',
  'FoldersIndex.index GET /folders.json',
  'FoldersView.view GET /folders/{id}.json',
  'FoldersCreate.create POST /folders.json',
  'FoldersUpdate.update PUT /folders/{id}.json',
  'FoldersUpdate.update POST /folders/{id}.json',
  'FoldersDelete.delete DELETE /folders/{id}.json',
  'FoldersShare.share PUT /share/folder/{id}.json',
  'FoldersShare.share POST /share/folder/{id}.json',
  'ShareSimulate.simulate POST /share/simulate/folder/{id}.json',
  'FoldersRelationsMove.move PUT /move/resource/{id}.json',
  'FoldersRelationsMove.move POST /move/resource/{id}.json',
  'FoldersRelationsMove.move PUT /move/folder/{id}.json',
  'FoldersRelationsMove.move POST /move/folder/{id}.json',
  'AuthLogin.loginPost POST /auth/verify.json',
  'AuthLogin.loginPost POST /auth/login.json',
  'AuthIsAuthenticated.isAuthenticated GET /auth/is-authenticated.json',
  'AuthLogout.logout POST /auth/logout.json',
  'AuthLogout.logout GET /auth/logout.json',
  'JwtJwks.jwks GET /auth/jwt/jwks.json',
  'JwtLogin.loginPost POST /auth/jwt/login.json',
  'JwtRefresh.refreshPost POST /auth/jwt/refresh.json',
  'JwtLogout.logoutPost POST /auth/jwt/logout.json',
  'TotpVerifyGet.get GET /mfa/verify/totp.json',
  'TotpVerifyPost.post POST /mfa/verify/totp.json',
  'YubikeyVerifyGet.get GET /mfa/verify/yubikey.json',
  'YubikeyVerifyPost.post POST /mfa/verify/yubikey.json',
  'MfaVerifyAjaxError.get GET /mfa/verify/error.json',
  'MfaVerifyAjaxError.get POST /mfa/verify/error.json',
  'MfaVerifyAjaxError.get PUT /mfa/verify/error.json',
  'MfaVerifyAjaxError.get DELETE /mfa/verify/error.json',
  'MfaSetupSelect.get GET /mfa/setup/select.json',
  'TotpSetupGet.get GET /mfa/setup/totp.json',
  'TotpSetupPost.post POST /mfa/setup/totp.json',
  'YubikeySetupPost.post POST /mfa/setup/yubikey.json',
  'TotpSetupDelete.delete DELETE /mfa/setup/totp.json',
  'YubikeySetupDelete.delete DELETE /mfa/setup/yubikey.json',
  'MfaUserSettingsDisable.delete DELETE /mfa/setup/{userId}.json',
  'MfaOrgSettingsGet.get GET /mfa/settings.json',
  'MfaOrgSettingsPost.post PUT /mfa/settings.json',
  'MfaOrgSettingsPost.post POST /mfa/settings.json',
  'SetupStart.start GET /setup/start/{userId}/{tokenId}.json',
  'SetupComplete.complete PUT /setup/complete/{userId}.json',
  'RecoverComplete.complete PUT /setup/recover/complete/{userId}.json',
  'SetupComplete.complete POST /setup/complete/{userId}.json',
  'RecoverComplete.complete POST /setup/recover/complete/{userId}.json',
  'UsersRecover.post POST /users/recover.json',
  'RecoverStart.start GET /setup/recover/start/{userId}/{tokenId}.json',
  'RecoverAbort.post POST /setup/recover/abort/{userId}.json',
  'AccountSettingsIndex.index GET /account/settings.json',
  'ThemesIndex.index GET /account/settings/themes.json',
  'ThemesSelect.select POST /account/settings/themes.json',
  'OrganizationLocalesSelect.select POST /locale/settings.json',
  'AccountLocalesSelect.select POST /account/settings/locales.json',
  'PasswordPoliciesSettingsGet.get GET /password-policies/settings.json',
  'PasswordGeneratorSettings.redirect GET /password-generator/settings.json',
  'PasswordPoliciesSettingsPost.post POST /password-policies/settings.json',
  'PasswordPoliciesSettingsPost.post PUT /password-policies/settings.json',
  'UserPassphrasePoliciesSettingsGet.get GET /user-passphrase-policies/settings.json',
  'UserPassphrasePoliciesSettingsPost.post POST /user-passphrase-policies/settings.json',
  'UserPassphrasePoliciesSettingsPost.post PUT /user-passphrase-policies/settings.json',
  'PasswordExpirySettingsGet.get GET /password-expiry/settings.json',
  'PasswordExpirySettingsSet.post POST /password-expiry/settings.json',
  'PasswordExpirySettingsSet.post PUT /password-expiry/settings.json',
  'PasswordExpirySettingsDelete.delete DELETE /password-expiry/settings/{id}.json',
  'NotificationOrgSettingsGet.get GET /settings/emails/notifications.json',
  'NotificationOrgSettingsPost.post POST /settings/emails/notifications.json',
  'SmtpSettingsGet.get GET /smtp/settings.json',
  'SmtpSettingsPost.post POST /smtp/settings.json',
  'SmtpSettingsPost.post PUT /smtp/settings.json',
  'SmtpSettingsEmail.sendTestEmail POST /smtp/email.json',
  'SelfRegistrationGetSettings.getSettings GET /self-registration/settings.json',
  'SelfRegistrationSetSettings.setSettings POST /self-registration/settings.json',
  'SelfRegistrationSetSettings.setSettings PUT /self-registration/settings.json',
  'SelfRegistrationDeleteSettings.deleteSettings DELETE /self-registration/settings/{id}.json',
  'SelfRegistrationDryRun.dryRun POST /self-registration/dry-run.json',
  'UsersRegister.registerPost POST /users/register.json',
])

const assembled = assemblePlugins(plugins)
const document = buildOpenApi(assembled) as unknown as {
  paths: Record<string, Record<string, Operation>>
}
const documented = assembled.flatMap((plugin) =>
  (plugin.routes ?? [])
    .filter((route) => route.openapi !== false)
    .map((route) => ({ plugin: plugin.name, route })),
)

interface Example {
  example?: { header: { code: number; status: string; message: string }; body: unknown }
}
interface Operation {
  summary?: string
  description?: string
  tags: string[]
  security: Record<string, string[]>[]
  parameters: { name: string; in: string; example?: unknown }[]
  requestBody?: { content: { 'application/json': { example?: unknown } } }
  responses: Record<string, { description: string; content: Record<string, Example> }>
}

const issuesOf = (error: z.ZodError) =>
  error.issues.map((issue) => `${issue.path.join('.')} ${issue.message}`).join('; ')
const name = (route: Route) => `${route.method} ${route.path}`
const operationOf = (route: Route) => document.paths[route.path]?.[route.method.toLowerCase()]

test('the document holds every route of the assembled server, and nothing else', (t) => {
  t.true(documented.length > 100)
  const operations = Object.entries(document.paths).flatMap(([path, methods]) =>
    Object.keys(methods).map((method) => `${method.toUpperCase()} ${path}`),
  )
  t.deepEqual(operations.sort(), documented.map(({ route }) => name(route)).sort())
})

test('every operation has a summary and a description of its own', (t) => {
  const lacking = documented
    .filter(({ route }) => {
      const operation = operationOf(route)
      return (
        !operation?.summary?.trim() ||
        !operation.description?.trim() ||
        operation.description.trim() === operation.summary.trim()
      )
    })
    .map(({ plugin, route }) => `${plugin}: ${name(route)}`)
  t.deepEqual(lacking, [], 'add a `description` to these route declarations')
})

test('security follows the route’s access: none when public, a cookie session (with CSRF on changing calls) or a bearer token otherwise', (t) => {
  for (const { route } of documented) {
    const { security } = operationOf(route)
    if (route.auth === 'public') {
      t.deepEqual(security, [], name(route))
      continue
    }
    const csrf = route.method !== 'GET' && route.csrf !== false
    t.deepEqual(
      security,
      [csrf ? { gpgAuth: [], csrfToken: [] } : { gpgAuth: [] }, { jwt: [] }],
      name(route),
    )
  }
})

test('each path parameter is documented with an example the route accepts', (t) => {
  for (const { route } of documented) {
    const names = [...route.path.matchAll(/\{([^}]+)\}/g)].map((match) => match[1])
    const parameters = operationOf(route).parameters.filter((p) => p.in === 'path')
    t.deepEqual(
      parameters.map((p) => p.name),
      names,
      name(route),
    )
    if (!route.params) continue
    const values = Object.fromEntries(parameters.map((p) => [p.name, p.example]))
    const parsed = route.params.safeParse(values)
    t.true(parsed.success, `${name(route)}: ${JSON.stringify(values)}`)
  }
})

test('each request body has an example the route’s own schema accepts', (t) => {
  const refused: string[] = []
  for (const { route } of documented) {
    const body = operationOf(route).requestBody
    if (!route.body) {
      t.is(body, undefined, name(route))
      continue
    }
    const parsed = route.body.safeParse(body?.content['application/json'].example)
    if (!parsed.success) refused.push(`${name(route)}: ${issuesOf(parsed.error)}`)
  }
  t.deepEqual(refused, [], 'give these fields an example: `.meta({ examples: [...] })`')
})

test('every response the route can give is documented with an example envelope', (t) => {
  for (const { route } of documented) {
    const { responses } = operationOf(route)
    const expected = ['200', '400']
    if (route.auth !== 'public') expected.push('401')
    if (route.auth === 'admin') expected.push('403')
    if (route.permission !== 'none') {
      expected.push(...route.permission.refusals.map(String))
      for (const status of route.permission.refusals)
        t.truthy(
          route.permission.refusalMessages?.[status],
          `${name(route)}: its policy names no message for ${status} (refusalMessages)`,
        )
    }
    // Any changing call in a cookie session without the CSRF token.
    if (route.method !== 'GET' && route.csrf !== false) expected.push('403')
    if (route.throttle) expected.push('429')
    t.deepEqual(Object.keys(responses).sort(), [...new Set(expected)].sort(), name(route))
    for (const [status, response] of Object.entries(responses)) {
      t.truthy(response.description, `${name(route)} ${status}`)
      if (status === '200') continue
      const example = response.content['application/json'].example
      t.is(example?.header.code, Number(status), `${name(route)} ${status}`)
      t.is(example?.header.status, 'error')
      t.truthy(example?.header.message)
      if (status === '400' && route.body)
        t.is(typeof example?.body, 'object', `${name(route)}: the validation tree`)
    }
  }
})

test('success bodies are documented by a response schema, with an example it accepts', (t) => {
  const lacking: string[] = []
  const refused: string[] = []
  for (const { route } of documented) {
    const key = `${route.action} ${name(route)}`
    if (route.produces) {
      t.truthy(operationOf(route).responses['200'].content[route.produces], key)
      continue
    }
    const success = operationOf(route).responses['200'].content['application/json']
    if (!route.response) {
      if (!PENDING_RESPONSE_SCHEMAS.has(key)) lacking.push(key)
      continue
    }
    t.false(PENDING_RESPONSE_SCHEMAS.has(key), `${key} has a response schema now: unlist it`)
    const parsed = route.response.safeParse(success.example?.body)
    if (!parsed.success) refused.push(`${key}: ${issuesOf(parsed.error)}`)
  }
  t.deepEqual(refused, [], 'give these fields an example: `.meta({ examples: [...] })`')
  t.deepEqual(lacking, [], 'declare a `response` schema on these routes')
})
