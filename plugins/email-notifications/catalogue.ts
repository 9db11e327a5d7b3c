// Every e-mail notification an organisation can turn on or off, with passbolt's defaults. The
// names are the settings' wire names and the tags outgoing mails carry (`Mail.notification`).

/** `send_*` decide whether a mail goes out; `show_*` what a password or comment mail shows. */
export const NOTIFICATION_DEFAULTS = {
  purify_subject: false,
  show_comment: false,
  show_description: false,
  show_secret: false,
  show_uri: false,
  show_username: false,
  send_admin_user_setup_completed: true,
  send_admin_user_recover_abort: true,
  send_admin_user_recover_complete: true,
  send_admin_user_disable_user: true,
  send_admin_user_disable_admin: true,
  send_admin_user_register_complete: true,
  send_comment_add: true,
  send_folder_create: false,
  send_folder_update: true,
  send_folder_delete: true,
  send_folder_share: true,
  send_group_delete: true,
  send_group_user_add: true,
  send_group_user_delete: true,
  send_group_user_update: true,
  send_group_manager_update: true,
  send_group_manager_requestAddUser: true,
  send_password_create: false,
  send_password_share: true,
  send_password_update: true,
  send_password_delete: true,
  send_password_expire: true,
  send_user_create: true,
  send_user_recover: true,
  send_user_recoverComplete: true,
} as const satisfies Record<string, boolean>

export type NotificationName = keyof typeof NOTIFICATION_DEFAULTS

export type NotificationSettings = Record<NotificationName, boolean>

export const isNotificationName = (name: string): name is NotificationName =>
  Object.hasOwn(NOTIFICATION_DEFAULTS, name)
