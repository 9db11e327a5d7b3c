// Every plugin the server knows; the configuration may disable some.
import type { Plugin } from '../api/plugin.ts'
import accountSettings from './account-settings/index.ts'
import auth from './auth/index.ts'
import avatars from './avatars/index.ts'
import comments from './comments/index.ts'
import emailNotifications from './email-notifications/index.ts'
import favorites from './favorites/index.ts'
import folderTree from './folder-tree/index.ts'
import folders from './folders/index.ts'
import gpgkeys from './gpgkeys/index.ts'
import groups from './groups/index.ts'
import healthcheck from './healthcheck/index.ts'
import importExport from './import-export/index.ts'
import jwt from './jwt/index.ts'
import locale from './locale/index.ts'
import metadata from './metadata/index.ts'
import metrics from './metrics/index.ts'
import mfa from './mfa/index.ts'
import mobileTransfers from './mobile-transfers/index.ts'
import pages from './pages/index.ts'
import passboltImport from './passbolt-import/index.ts'
import passwordExpiry from './password-expiry/index.ts'
import passwordPolicies from './password-policies/index.ts'
import permissions from './permissions/index.ts'
import rbacs from './rbacs/index.ts'
import reports from './reports/index.ts'
import resourceTypes from './resource-types/index.ts'
import resources from './resources/index.ts'
import roles from './roles/index.ts'
import secretRevisions from './secret-revisions/index.ts'
import secrets from './secrets/index.ts'
import selfRegistration from './self-registration/index.ts'
import settings from './settings/index.ts'
import setup from './setup/index.ts'
import share from './share/index.ts'
import smtpSettings from './smtp-settings/index.ts'
import tags from './tags/index.ts'
import userKeyPolicies from './user-key-policies/index.ts'
import userPassphrasePolicies from './user-passphrase-policies/index.ts'
import users from './users/index.ts'

export const plugins: readonly Plugin[] = [
  settings,
  roles,
  rbacs,
  avatars,
  users,
  permissions,
  resourceTypes,
  secrets,
  secretRevisions,
  // Before the plugins whose deletion cleanup reads group memberships (cleanups run in reverse).
  groups,
  gpgkeys,
  favorites,
  folderTree,
  tags,
  comments,
  resources,
  share,
  folders,
  healthcheck,
  metrics,
  auth,
  jwt,
  mfa,
  setup,
  mobileTransfers,
  accountSettings,
  locale,
  passwordPolicies,
  userPassphrasePolicies,
  userKeyPolicies,
  importExport,
  passwordExpiry,
  metadata,
  emailNotifications,
  smtpSettings,
  selfRegistration,
  reports,
  pages,
  passboltImport,
]
