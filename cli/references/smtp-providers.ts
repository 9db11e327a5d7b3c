// One page per mail provider that the extension's Email server page offers, generated from the
// extension's own provider list (passbolt-styleguide), so the hosts and ports shown are the ones
// the form fills in for the installed client version.

interface SmtpConfiguration {
  host: string
  port: number | string
  tls: boolean
}

interface SmtpProvider {
  id: string
  name: string
  help_page?: string
  availableConfigurations: SmtpConfiguration[]
  defaultConfiguration: SmtpConfiguration
}

const PROVIDERS_MODULE =
  'passbolt-styleguide/src/react-extension/components/Administration/ManageSmtpAdministrationSettings/SmtpProviders.data.js'

/** The providers, in the order the extension lists them. */
export const loadSmtpProviders = async (): Promise<SmtpProvider[]> =>
  ((await import(PROVIDERS_MODULE)) as { default: SmtpProvider[] }).default

const tlsLabel = (tls: boolean, port: number | string) =>
  !tls ? 'No' : port === 465 ? 'Yes (implicit TLS)' : 'Yes (STARTTLS)'

const group = (configurations: SmtpConfiguration[]) => {
  const byHost = new Map<string, SmtpConfiguration[]>()
  for (const c of configurations) byHost.set(c.host, [...(byHost.get(c.host) ?? []), c])
  return [...byHost].map(
    ([host, list]) =>
      `| \`${host}\` | ${list.map((c) => `${c.port} (TLS ${c.tls ? 'yes' : 'no'})`).join(', ')} |`,
  )
}

/** The Markdown of one provider's page. */
export const renderSmtpProviderPage = (provider: SmtpProvider, position: number): string => {
  const other = provider.availableConfigurations.length === 0
  const d = provider.defaultConfiguration
  const body = other
    ? `**Other** leaves every field empty except **Use TLS**, which starts at **Yes**. Fill in
the values your mail server's administrator gives you:

- **SMTP host**: the server's name. Prefix it with \`ssl://\` or \`tls://\` to force implicit TLS on
  a port other than 465.
- **Use TLS**: **Yes** encrypts the connection: implicit TLS on port 465 (or with the prefix
  above), STARTTLS required on any other port. **No** sends in clear and ignores STARTTLS:
  use it only for a relay on the same machine or network, such as \`localhost\` port 25.
- **Port**: usually 587 (submission with STARTTLS), 465 (implicit TLS) or 25 (relay).
- **Authentication method**: **Username & password**, or **None** for a relay that trusts
  the server's address.`
    : `Choosing **${provider.name}** fills the form with its default,
**SMTP host** \`${d.host}\`, **Port** ${d.port}, **Use TLS** ${tlsLabel(d.tls, d.port)}. Every
combination the extension knows for this provider:

| SMTP host | Port (TLS) |
|---|---|
${group(provider.availableConfigurations).join('\n')}

Enter the **Username** and **Password** that ${provider.name} gives you for SMTP (often an API key
or an app password rather than your account's password), then a **Sender name** and a
**Sender email** that ${provider.name} allows you to send from.${
        provider.help_page ? `\n\nThe provider's own instructions: <${provider.help_page}>.` : ''
      }`
  return `---
title: ${provider.name}
description: Send Keyward's mail through ${provider.name}, with the host, port and TLS values the Email server page offers for it.
sidebar_position: ${position}
keywords:
  - smtp
  - email
  - ${provider.id}
---

In the browser extension, open **Administration > Email server**, and pick **${provider.name}** in
**Email provider**. This page is generated from the provider list of the extension version that
Keyward is tested with, so the values below are the ones the form fills in.

## Values

${body}

## Test and save

Select **Send test email** and give an address you can read: Keyward sends a test message with
the values in the form, before anything is saved, and shows the SMTP conversation (credentials
masked) so you can see which step was refused. Then select **Save**. Saved settings win over
\`KEYWARD_SMTP_URL\`. The password is shown back to administrators only, on this page, so that
saving another change keeps it; it is never written to the logs.

Mail that fails later is kept in the queue and retried: see
[Mail and the outbox](../../../hosting/configure/mail.md). Back to [Email server](./index.md).
`
}

/** Every provider page, as { path under content/docs/, markdown }. */
export const renderSmtpProviderPages = async () =>
  (await loadSmtpProviders()).map((provider, index) => ({
    path: `admin/emails/email-server/${provider.id}.md`,
    markdown: renderSmtpProviderPage(provider, index + 1),
  }))
