// The SMTP settings in force and what uses them: the administration answer (saved settings, or
// the configuration's server when none were saved), the server the mailer sends through, and
// the test e-mail with its SMTP conversation.
import type { EntityManager } from '@mikro-orm/postgresql'
import { z } from 'zod'
import type { AppContext } from '../../api/app.ts'
import { FeedCache } from '../../api/db/change-feed.ts'
import type { SmtpServer } from '../../api/mailer.ts'
import { pluginState } from '../../api/plugin.ts'
import { OauthTokens } from './oauth.ts'
import {
  readSavedSmtpSettings,
  type StoredSmtpSettings,
  UnreadableSmtpSettingsError,
} from './store.ts'

interface SmtpState {
  saved: FeedCache<StoredSmtpSettings | null>
  tokens: OauthTokens
}

const state = pluginState<SmtpState>('smtp-settings')

export const initSmtpState = (app: AppContext, tokens = new OauthTokens()) =>
  state.set(app, {
    saved: new FeedCache(app.changes, 'organization_settings', 'table'),
    tokens,
  })

/** Called after saving, so this process never sends through the old settings. */
export const forgetSavedSmtpSettings = (app: AppContext) => state.get(app).saved.forget('smtp')

/**
 * `Name <address>` of the configuration's sender, split. An address the clients would refuse
 * (the default `no-reply@localhost` has no top-level domain) gives way to `fallback`, as the
 * administration page itself proposes the administrator's own address.
 */
const parseMailFrom = (mailFrom: string, fallback: string) => {
  const match = /^\s*"?([^"<]*?)"?\s*<([^>]+)>\s*$/.exec(mailFrom)
  const { name, email } = match
    ? { name: match[1] || 'Keyward', email: match[2] }
    : { name: 'Keyward', email: mailFrom.trim() }
  return { name, email: z.email().safeParse(email).success ? email : fallback }
}

/**
 * The configuration's SMTP server (KEYWARD_SMTP_URL) as settings. Its password is never shown:
 * it belongs to whoever runs the server, not to the administrators of the organisation.
 */
const configuredSettings = (app: AppContext, fallbackSender: string) => {
  const sender = parseMailFrom(app.config.mailFrom, fallbackSender)
  const base = {
    sender_name: sender.name,
    sender_email: sender.email,
    client: null,
    password: null,
    tenant_id: null,
    client_id: null,
    client_secret: null,
    oauth_username: null,
  }
  if (!app.config.smtpUrl)
    // No server at all (mail goes to the outbox folder): a starting point for the form.
    return { source: 'env', ...base, host: 'localhost', port: 25, tls: false, username: null }
  const url = new URL(app.config.smtpUrl)
  const implicit = url.protocol === 'smtps:'
  return {
    source: 'env',
    ...base,
    host: url.hostname.replace(/^\[|\]$/g, ''),
    port: Number(url.port) || (implicit ? 465 : 587),
    tls: implicit,
    username: url.username ? decodeURIComponent(url.username) : null,
  }
}

/**
 * The administration answer: saved settings (`source: db`) with their row, else the
 * configuration's; `caller` is the sender proposed when the configuration has no valid one.
 */
export const smtpSettingsAnswer = async (em: EntityManager, app: AppContext, caller: string) => {
  const saved = await readSavedSmtpSettings(em, app)
  if (!saved) return configuredSettings(app, caller)
  return { ...saved.meta, source: 'db', ...saved.settings }
}

/** The settings as the mailer needs them; OAuth2 settings get a fresh access token. */
export const smtpServerOf = async (
  app: AppContext,
  settings: StoredSmtpSettings,
): Promise<SmtpServer> => {
  const base = {
    host: settings.host,
    port: settings.port,
    tls: settings.tls,
    client: settings.client,
    sender: { name: settings.sender_name, email: settings.sender_email },
  }
  if (settings.client_id && settings.tenant_id && settings.client_secret)
    return {
      ...base,
      username: settings.oauth_username,
      accessToken: await state.get(app).tokens.get({
        tenant_id: settings.tenant_id,
        client_id: settings.client_id,
        client_secret: settings.client_secret,
      }),
    }
  return { ...base, username: settings.username, password: settings.password }
}

/** The mailer's hook: the saved settings, or undefined to use the configuration's server. */
export const savedSmtpServer = async (app: AppContext): Promise<SmtpServer | undefined> => {
  let settings: StoredSmtpSettings | null
  try {
    settings = await state.get(app).saved.get('smtp', async () => {
      const saved = await readSavedSmtpSettings(app.orm.em.fork(), app)
      return saved?.settings ?? null
    })
  } catch (error) {
    if (!(error instanceof UnreadableSmtpSettingsError)) throw error
    app.logger.error(
      'the saved SMTP settings cannot be decrypted (was the server key replaced?); sending through the configured server',
    )
    return undefined
  }
  return settings ? smtpServerOf(app, settings) : undefined
}

/** The SMTP part of the administrators' healthcheck. */
export const smtpHealthcheck = async (app: AppContext, em: EntityManager) => {
  try {
    const saved = await readSavedSmtpSettings(em, app)
    return {
      smtpSettings: {
        // The plugin is on (passbolt's meaning); where mail goes is `source`.
        isEnabled: true,
        areEndpointsDisabled: false,
        errorMessage: false,
        source: saved ? 'db' : 'env',
        isInDb: Boolean(saved),
      },
    }
  } catch (error) {
    if (!(error instanceof UnreadableSmtpSettingsError)) throw error
    return {
      smtpSettings: {
        isEnabled: true,
        areEndpointsDisabled: false,
        errorMessage: error.message,
        source: 'env',
        isInDb: true,
      },
    }
  }
}
