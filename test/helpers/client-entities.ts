// The official clients' own entity classes (passbolt-browser-extension and passbolt-styleguide
// from npm), to validate what the server answers exactly as the extension does. They are
// bundled once with esbuild into a module cached outside the checkout, keyed by the versions
// (about 15 s the first time: two `npm pack`s and four small dependencies).
import { execFileSync } from 'node:child_process'
import { createHash } from 'node:crypto'
import { existsSync, mkdirSync, mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs'
import { homedir } from 'node:os'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { build } from 'esbuild'

export const EXTENSION_VERSION = '5.11.1'
export const STYLEGUIDE_VERSION = '5.11.4'

/** The extension's entity sources use these, at the versions its lockfile names. */
const DEPENDENCIES = ['validator@13.15.26', 'xregexp@5.1.2', 'ip-regex@5.0.0', 'uuid@8.3.2']

const EXTENSION_ENTITIES = {
  UserEntity: 'user/userEntity',
  UsersCollection: 'user/usersCollection',
  GroupEntity: 'group/groupEntity',
  GroupsCollection: 'group/groupsCollection',
  GroupUpdateDryRunResultEntity: 'group/update/groupUpdateDryRunResultEntity',
  ResourceEntity: 'resource/resourceEntity',
  ResourcesCollection: 'resource/resourcesCollection',
  FolderEntity: 'folder/folderEntity',
  FoldersCollection: 'folder/foldersCollection',
  PermissionEntity: 'permission/permissionEntity',
  PermissionsCollection: 'permission/permissionsCollection',
  CommentEntity: 'comment/commentEntity',
  CommentsCollection: 'comment/commentsCollection',
  TagEntity: 'tag/tagEntity',
  TagsCollection: 'tag/tagsCollection',
  FavoriteEntity: 'favorite/favoriteEntity',
  UserAndGroupSearchResultEntity: 'userAndGroupSearchResultEntity/userAndGroupSearchResultEntity',
  PasswordPoliciesEntity: 'passwordPolicies/passwordPoliciesEntity',
  TransferEntity: 'transfer/transferEntity',
}

const STYLEGUIDE_ENTITIES = {
  ResourceTypeEntity: 'resourceType/resourceTypeEntity',
  ResourceTypesCollection: 'resourceType/resourceTypesCollection',
  GpgkeyEntity: 'gpgkey/gpgkeyEntity',
  RoleEntity: 'role/roleEntity',
  SecretEntity: 'secret/secretEntity',
  AvatarEntity: 'avatar/avatarEntity',
  SmtpSettingsEntity: 'smtpSettings/smtpSettingsEntity',
  SmtpNoneAuthenticationEntity: 'smtpSettings/smtpNoneAuthenticationEntity',
  SmtpUsernameAuthenticationEntity: 'smtpSettings/smtpUsernameAuthenticationEntity',
  SmtpUsernamePasswordAuthenticationEntity: 'smtpSettings/smtpUsernamePasswordAuthenticationEntity',
  SmtpOAuthCredentialsGrantSettingsEntity: 'smtpSettings/smtpOAuthCredentialsGrantSettingsEntity',
  UserPassphrasePoliciesEntity: 'userPassphrasePolicies/userPassphrasePoliciesEntity',
  PasswordExpirySettingsEntity: 'passwordExpiry/passwordExpirySettingsEntity',
  MetadataTypesSettingsEntity: 'metadata/metadataTypesSettingsEntity',
  MetadataKeysSettingsEntity: 'metadata/metadataKeysSettingsEntity',
  MetadataSetupSettingsEntity: 'metadata/metadataSetupSettingsEntity',
  MetadataGettingStartedSettingsEntity: 'metadata/metadataGettingStartedSettingsEntity',
  HealthcheckEntity: 'healthcheck/healthcheckEntity',
  SecretRevisionsSettingsEntity: 'secretRevision/secretRevisionsSettingsEntity',
  RbacEntity: 'rbac/rbacEntity',
  UiActionEntity: 'rbac/uiActionEntity',
  SecretRevisionEntity: 'secretRevision/secretRevisionEntity',
  ExportPoliciesSettingsEntity: 'exportSettings/ExportPoliciesSettingsEntity',
  UserKeyPoliciesSettingsEntity: 'userKeyPolicies/UserKeyPoliciesSettingsEntity',
}

export type EntityName = keyof typeof EXTENSION_ENTITIES | keyof typeof STYLEGUIDE_ENTITIES

const cacheRoot = () => join(process.env.XDG_CACHE_HOME ?? join(homedir(), '.cache'), 'keyward')

/** Keyed by the versions and the list of entities, so adding one makes a new bundle. */
const bundlePath = () => {
  const list = createHash('sha256')
    .update(JSON.stringify([EXTENSION_ENTITIES, STYLEGUIDE_ENTITIES, DEPENDENCIES]))
    .digest('hex')
    .slice(0, 12)
  return join(
    cacheRoot(),
    `passbolt-client-entities-${EXTENSION_VERSION}-${STYLEGUIDE_VERSION}-${list}`,
    'entities.mjs',
  )
}

const prepare = async (): Promise<string> => {
  const target = bundlePath()
  if (existsSync(target)) return target
  mkdirSync(cacheRoot(), { recursive: true })
  const work = mkdtempSync(join(cacheRoot(), 'entities-build-'))
  try {
    const run = (command: string, args: string[]) =>
      execFileSync(command, args, { cwd: work, stdio: 'pipe', env: { ...process.env } })
    for (const spec of [
      `passbolt-browser-extension@${EXTENSION_VERSION}`,
      `passbolt-styleguide@${STYLEGUIDE_VERSION}`,
    ]) {
      const tarball = run('npm', ['pack', spec, '--silent']).toString().trim().split('\n').at(-1)!
      const folder = spec.split('@')[0]
      mkdirSync(join(work, folder))
      run('tar', ['xzf', tarball, '-C', folder, '--strip-components=1'])
    }
    writeFileSync(join(work, 'package.json'), '{"private": true}')
    run('npm', ['install', '--no-audit', '--no-fund', '--ignore-scripts', ...DEPENDENCIES])
    const lines = [
      ...Object.entries(EXTENSION_ENTITIES).map(
        ([name, path]) =>
          `export { default as ${name} } from './passbolt-browser-extension/src/all/background_page/model/entity/${path}'`,
      ),
      ...Object.entries(STYLEGUIDE_ENTITIES).map(
        ([name, path]) =>
          `export { default as ${name} } from 'passbolt-styleguide/src/shared/models/entity/${path}'`,
      ),
    ]
    writeFileSync(join(work, 'entry.js'), `${lines.join('\n')}\n`)
    await build({
      entryPoints: [join(work, 'entry.js')],
      bundle: true,
      platform: 'node',
      format: 'esm',
      alias: { 'passbolt-styleguide': join(work, 'passbolt-styleguide') },
      outfile: join(work, 'out', 'entities.mjs'),
      logLevel: 'error',
    })
    // Concurrent test processes may each build it; the first rename wins, the others find it.
    mkdirSync(join(target, '..'), { recursive: true })
    if (!existsSync(target)) renameSync(join(work, 'out', 'entities.mjs'), target)
    return target
  } finally {
    rmSync(work, { recursive: true, force: true })
  }
}

// biome-ignore lint/suspicious/noExplicitAny: the clients' classes are plain JavaScript
let loaded: Promise<Record<EntityName, any>> | undefined

/** The entity classes, prepared on first use. */
export const clientEntities = () => {
  loaded ??= prepare().then((path) => import(pathToFileURL(path).href))
  return loaded
}

/**
 * Builds the named client entity from `dto` as the extension does on an API answer, and returns
 * its validation errors (`{}` when it is valid).
 */
export const clientValidation = async (
  name: EntityName,
  dto: unknown,
  options: Record<string, unknown> = {},
): Promise<Record<string, unknown>> => {
  const entities = await clientEntities()
  try {
    new entities[name](dto, options)
    return {}
  } catch (error) {
    const details = (error as { details?: Record<string, unknown> }).details
    if (details) return details
    return { error: (error as Error).message }
  }
}
