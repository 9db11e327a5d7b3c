// Notes on using each command, appended to its generated reference page. The flags themselves come
// from the command's definition; a command without notes fails the references test.

/** Markdown per command, keyed by its full name (`api user create`). */
export const COMMAND_GUIDES: Record<string, string> = {
  'api start': `## What it does

1. Reads the settings (environment, then \`keyward.config.json\`, then these flags) and stops
   with one line per bad value.
2. Without \`DATABASE_URL\`, starts the embedded PostgreSQL under the data folder.
3. Applies pending migrations under a PostgreSQL advisory lock, so processes starting together
   apply each migration once.
4. Generates the server's OpenPGP key and the JWT key pair when their files are absent.
5. Serves until SIGINT or SIGTERM, then finishes the requests in flight, closes the database
   pool and stops the embedded PostgreSQL.

With \`--tls-cert\` and \`--tls-key\` it serves HTTPS itself (HTTP/2 and HTTP/1.1, TLS 1.2 or later,
HSTS) and reads renewed certificate files on SIGHUP. With \`--workers N\` it runs N processes on the
port; the first one migrates and makes the keys, and a process that dies is replaced.

## Examples

\`\`\`bash
npx api start --port 8080
npx api start --host 0.0.0.0 --workers 4
npx api start --tls-cert /etc/keyward/tls/fullchain.pem --tls-key /etc/keyward/tls/privkey.pem
\`\`\`

See [Install](../install/index.md) and [HTTPS](../configure/https/index.md).`,

  'api migrate': `## What it does

Applies the database migrations that are not applied yet, each in its own transaction, under a
PostgreSQL advisory lock: a second process that runs \`migrate\` or \`start\` at the same moment
waits, then finds nothing left to do. \`api start\` runs the same step, so you need this command
only to migrate before starting, for example in a deployment step.

With \`--status\` it changes nothing and prints the applied and pending migrations.

\`\`\`bash
npx api migrate --status
npx api migrate
\`\`\`

See [Update](../update/index.md).`,

  'api openapi': `## What it does

Prints the OpenAPI 3.1.0 document (API version 5.0.0) of the routes of the enabled plugins, built
from the same route declarations the server validates requests with. Plugins left out with
\`KEYWARD_DISABLED_PLUGINS\` are left out of the document too. The
[API reference](/docs/api/) of this site is rendered from the same document.

\`\`\`bash
npx api openapi > openapi.json
\`\`\``,

  'api backup': `## What it does

Writes one archive holding a consistent snapshot of every table (read in one repeatable-read
transaction while the server keeps running), the server and JWT key pairs, the settings, and a
manifest with a SHA-256 checksum of each part. With \`--encrypt-to\` the archive is encrypted to
an OpenPGP public key, so it can be stored where the server's secrets must not be readable.

\`\`\`bash
npx api backup --output keyward-backup.tar.gz
npx api backup --output keyward-backup.pgp --encrypt-to backup-public.asc
\`\`\`

It prints the archive's size and its numbers of tables and rows. See
[Backup and restore](../backup/index.md).`,

  'api restore': `## What it does

Reads the whole archive first: its format, every checksum and the row counts. With \`--check\` it
stops there and writes nothing. Otherwise it restores into an **empty** database and data
folder only: the schema through the archive's migrations, then every row in one transaction,
then the key files; the archived settings are written to \`<data>/restored.keyward.config.json\`
for you to compare with yours. An archive of a newer format, or with migrations this version
does not know, is refused.

\`\`\`bash
npx api restore keyward-backup.tar.gz --check
KEYWARD_BACKUP_PASSPHRASE='…' npx api restore keyward-backup.pgp --decrypt-with backup-private.asc
\`\`\`

See [Backup and restore](../backup/index.md).`,

  'api healthcheck': `## What it does

Runs the server's checks without serving: the database, the schema and pending migrations, the
server key and its fingerprint, the served certificate, the public address, mail, the clock
against the database's, and the free space of the data folder. It prints one line per check,
\`ok\`, \`warn\` or \`FAIL\`, and exits with status 1 when a check fails (warnings do not).

\`\`\`bash
npx api healthcheck
npx api healthcheck --send-test-mail admin@example.com
\`\`\`

See [Health check](../health-check/index.md).`,

  'api user create': `## What it does

Registers a user who stays inactive until they finish the setup in a browser with the passbolt
extension. It mails the setup link and prints it, so it works before mail is configured. This is
how the first administrator is made.

\`\`\`bash
npx api user create --username admin@example.com --first-name Ada --last-name Lovelace --admin
\`\`\`

A malformed address or an empty name is refused with a line naming the flag, and so is a user
name already in use. See [Install](../install/index.md).`,

  'api migrate-from-passbolt': `## What it does

Moves a passbolt CE 4.x or 5.x organisation, read in one snapshot from its MariaDB or MySQL
database, into an empty Keyward database in one transaction, together with passbolt's server key,
so the clients keep working without setting up again: users, roles and their UI rights, groups,
passwords (v4 and v5), secrets, permissions, folders, favourites, comments, tags, avatars, metadata
keys, the organisation's settings (mail server, MFA, policies, expiry, notifications,
self-registration, language) and each user's settings with their TOTP and YubiKey enrolments.
\`--images-dir\` points at passbolt's avatar cache for pictures its database does not hold. Progress
is printed per table, with times, on standard error. It refuses an unknown schema and a database
that is not empty, and reports the rows it leaves behind and why. With \`--dry-run\` it changes
nothing in the target, not even its schema, and prints the same report.

\`\`\`bash
npx api migrate-from-passbolt --from mysql://passbolt:secret@127.0.0.1:3306/passbolt --gpg-dir /etc/passbolt/gpg --dry-run
\`\`\`

See [Migrate from passbolt](../migrate/from-passbolt.md).`,

  'docs build': `## What it does

Renders \`content/\` (Markdown pages, the sidebars, the site configuration and the OpenAPI
document) into a static site: one HTML page per document, the search index, the sitemap and the
assets. Broken links fail the build; warnings are printed and do not. Unchanged pages come from
the build cache under \`<root>/.cache/docs\` unless \`--no-cache\` is given.

\`\`\`bash
npx docs build --out build
npx docs --root ../my-site build --workers 2 --timings
\`\`\`

See [Writing docs](../../contribute/developer/writing-docs.md).`,

  'docs serve': `## What it does

Without \`--dir\`, builds the site in memory, serves it, rebuilds what you edit and reloads the open
tabs. With \`--dir\`, serves an already built folder as it is, which is how to preview the output
of \`docs build\`.

\`\`\`bash
npx docs serve --port 3000 --open
npx docs serve --dir build
\`\`\`

See [Writing docs](../../contribute/developer/writing-docs.md).`,
  'docs version': `## What it does

Copies \`content/docs/\` into \`content/versions/<name>/docs/\` and lists the new archived version in
\`content/versions/versions.json\`, which the build adds to the versions of the site config. The
archived pages are built at \`/docs/<name>/…\`, with a banner linking to the current page. A name
already used is refused.

\`\`\`bash
npx docs version 1.0 --label "1.0"
\`\`\`

See [Writing docs](../../contribute/developer/writing-docs.md).`,
}
