// Every command block of the hosting guide runs, as printed, so the manual cannot drift from the
// CLI. Blocks marked `sandbox` in their fence run here, in order, inside a private network and
// mount (and PID) namespace: its own loopback (the printed ports are free), its own PostgreSQL on
// 127.0.0.1:5432, a copy of /etc (db.internal resolves to it; /etc/keyward is writable) and an
// empty /srv. A line that starts a server runs in the background until the server answers, and
// is then stopped, as a reader would with Ctrl+C. The few blocks that cannot run here (a package
// install, Docker, reinstalling node_modules) are listed with the test that runs their steps.
import { spawn } from 'node:child_process'
import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs'
import { tmpdir } from 'node:os'
import { join, relative } from 'node:path'
import { fileURLToPath } from 'node:url'
import test from 'ava'
import type { Command } from 'commander'
import { createProgram as createApiProgram } from '../../api/cli.ts'
import { createProgram as createDocsProgram } from '../../cli/index.ts'
import { plugins } from '../../plugins/index.ts'
import { makeCertificate } from '../helpers/certificates.ts'
import { CORE_TABLES } from '../helpers/core-tables.ts'

const ROOT = fileURLToPath(new URL('../../', import.meta.url))
const HOSTING = join(ROOT, 'content/docs/hosting')
/** Fence languages that hold commands (configuration files and sample output are not). */
const COMMAND_LANGUAGES = new Set(['bash', 'sh', 'shell', 'console', 'sql'])

interface Block {
  page: string
  language: string
  sandbox: boolean
  title: string
  code: string
}

const pages = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory()
      ? pages(join(dir, entry.name))
      : entry.name.endsWith('.md')
        ? [join(dir, entry.name)]
        : [],
  )

const commandBlocks = (): Block[] =>
  pages(HOSTING)
    .sort()
    .flatMap((file) => {
      const page = relative(HOSTING, file)
      return [...readFileSync(file, 'utf8').matchAll(/^```(\w+)([^\n]*)\n([\s\S]*?)^```/gm)]
        .filter((match) => COMMAND_LANGUAGES.has(match[1]))
        .map((match) => ({
          page,
          language: match[1],
          sandbox: /(^|\s)sandbox(\s|$)/.test(match[2]),
          title: /title="([^"]*)"/.exec(match[2])?.[1] ?? match[3].split('\n')[0],
          code: match[3],
        }))
    })

/** Blocks that cannot run in the sandbox, and the test that runs what they do. */
const ELSEWHERE: Record<string, { test: string; why: string }> = {
  'install/debian.md#Build the package': {
    test: 'test/ops/deb-package.test.ts',
    why: 'npm ci would reinstall the node_modules every worktree shares',
  },
  'install/debian.md#Install': {
    test: 'test/ops/deb-package.test.ts',
    why: 'installing a package changes the machine; the test installs it into a throwaway root',
  },
  'install/debian.md#Check, then create the first administrator': {
    test: 'test/ops/deb-package.test.ts',
    why: 'needs the installed package, which the test runs keyward-api from',
  },
  'install/docker.md#Start Keyward with PostgreSQL': {
    test: 'test/ops/container.test.ts',
    why: 'this machine cannot pull base images; the test runs the Dockerfile steps on a clean copy',
  },
  'install/docker.md#Check, then create the first administrator': {
    test: 'test/ops/container.test.ts',
    why: 'needs the running container',
  },
  'install/index.md#Install dependencies and start the server': {
    test: '.ci/run',
    why: 'npm install would rewrite the shared node_modules; CI installs a fresh clone and starts it',
  },
  'update/index.md#Update a checkout': {
    test: 'test/ops/migrations-upgrade.test.ts',
    why: 'git pull and npm ci change the checkout; the test upgrades a populated database',
  },
}

const key = (block: Block) => `${block.page}#${block.title}`

/**
 * Programs of the reader's own system that a page may show around Keyward's commands (a
 * service manager, a firewall, a clock, the container tool). They act on a machine or a
 * container this test does not have, so their lines are not run; Keyward's own commands on the
 * same pages are checked against the CLI's definitions instead.
 */
const HOST_TOOLS = new Set([
  'adduser',
  'apt',
  'cd',
  'docker',
  'git',
  'grep',
  'install',
  'journalctl',
  'npm',
  'openssl',
  'systemctl',
  'timedatectl',
  'ufw',
])

const PROGRAMS: Record<string, Command> = { api: createApiProgram(), docs: createDocsProgram() }
const TABLES = new Set([
  ...CORE_TABLES,
  ...plugins.flatMap((plugin) => [...(plugin.tables ?? []), ...(plugin.views ?? [])]),
])

/** Where a line calls Keyward: `npx api`, `keyward-api`, `node …/bin/api.js`, `npx docs`. */
const keywardProgram = (words: string[]): { program: string; args: string[] } | undefined => {
  if (words[0] === 'npx' && (words[1] === 'api' || words[1] === 'docs'))
    return { program: words[1], args: words.slice(2) }
  if (words[0] === 'keyward-api') return { program: 'api', args: words.slice(1) }
  if (words[0] === 'node' && /bin\/(api|docs)\.js$/.test(words[1] ?? ''))
    return { program: /bin\/(api|docs)\.js$/.exec(words[1])![1], args: words.slice(2) }
  return undefined
}

/** Problems of one call of Keyward: an unknown command or an option the command lacks. */
const callProblems = (program: string, args: string[]): string[] => {
  let command = PROGRAMS[program]
  const flags = new Set(['--help', '-h'])
  const addFlags = (of: Command) => {
    for (const option of of.options) {
      if (option.long) flags.add(option.long)
      if (option.short) flags.add(option.short)
    }
  }
  addFlags(command)
  const problems: string[] = []
  for (const arg of args) {
    if (arg.startsWith('-')) {
      const flag = arg.split('=')[0]
      if (!flags.has(flag)) problems.push(`${program} ${command.name()}: no option ${flag}`)
      continue
    }
    const sub = command.commands.find((candidate) => candidate.name() === arg)
    if (sub) {
      command = sub
      addFlags(sub)
    }
  }
  if (command.commands.length) problems.push(`${program}: "${args.join(' ')}" names no command`)
  return problems
}

/**
 * Problems of a block that cannot run here: each Keyward call must name a real command and only
 * its options, any other line must call a host tool, and SQL may read only the schema's tables.
 */
const unrunnableBlockProblems = (block: Block): string[] => {
  if (block.language === 'sql')
    return [...block.code.matchAll(/\b(?:from|join|into|update)\s+([a-z_]+)/gi)]
      .map((match) => match[1])
      .filter((table) => !TABLES.has(table))
      .map((table) => `no table ${table}`)
  return block.code
    .split('\n')
    .map((line) => line.replace(/\s+#.*$/, '').trim())
    .filter((line) => line && !line.startsWith('#'))
    .flatMap((line) => line.split(/\s*(?:\|\||&&|\||;)\s*/))
    .flatMap((segment) => {
      const words = segment
        .replace(/[<>]\S*.*$/, '')
        .split(/\s+/)
        .filter(Boolean)
      // `sudo [-u user]` and `NAME=value` prefixes run the command that follows.
      while (words[0] === 'sudo' || /^[A-Z_]+=/.test(words[0] ?? ''))
        words.splice(0, words[0] === 'sudo' && words[1] === '-u' ? 3 : 1)
      if (!words.length) return []
      const call = keywardProgram(words)
      if (call) return callProblems(call.program, call.args)
      return HOST_TOOLS.has(words[0]) ? [] : [`${words[0]} is neither Keyward nor a host tool`]
    })
}

/** What a block needs before it runs (not printed: it is the reader's situation) and checks after. */
const SCENARIOS: Record<string, { before?: string; after?: string }> = {
  "backup/index.md#Back up, encrypted to an administrator's OpenPGP key": {
    // A populated server, and an administrator's key pair made with GnuPG.
    before: `npx api migrate >/dev/null
npx api user create --username ada@example.com --first-name Ada --last-name Admin --admin >/dev/null
mkdir -m 0700 "$S/gnupg"
gpg --batch --homedir "$S/gnupg" --passphrase '' --quick-gen-key 'Backups <backup@example.com>' future-default default never
gpg --batch --homedir "$S/gnupg" --armor --export backup@example.com > admin-backup.asc
gpg --batch --homedir "$S/gnupg" --armor --export-secret-keys backup@example.com > admin-backup-private.asc`,
    after: 'test -s "/srv/backups/keyward-$(date +%F).tar.gz.gpg"',
  },
  'backup/index.md#Check the archive, then restore it': {
    // The archive copied to the new host, an empty database and data folder there.
    before: `cp "/srv/backups/keyward-$(date +%F).tar.gz.gpg" keyward-2026-11-26.tar.gz.gpg
createdb -h 127.0.0.1 -U postgres restored
export DATABASE_URL=postgres://postgres@127.0.0.1:5432/restored KEYWARD_DATA_DIR="$S/restored"`,
    after: `test "$(psql -h 127.0.0.1 -U postgres -d restored -Atc "select username from users")" = ada@example.com
test -s "$S/restored/gpg/serverkey_private.asc"`,
  },
  "configure/database/postgres.md#export DATABASE_URL='postgres://keyward:change-me@db.internal:5432/keyward'":
    {
      after:
        'npx api migrate >/dev/null\nnpx api migrate --status | grep -qx "the database is up to date"',
    },
  'install/index.md#Start with your own database and public address': {
    before: `psql -h 127.0.0.1 -U postgres -v ON_ERROR_STOP=1 -q <<'SQL'
DROP DATABASE IF EXISTS keyward;
DROP ROLE IF EXISTS keyward;
CREATE ROLE keyward LOGIN PASSWORD 'secret';
CREATE DATABASE keyward OWNER keyward;
SQL`,
  },
  'install/index.md#npx api user create --username you@example.com --first-name Ada --last-name Admin --admin':
    {
      after:
        'psql -h 127.0.0.1 -U postgres -d sandbox -Atc "select count(*) from users where username = \'you@example.com\'" | grep -qx 1',
    },
  'health-check/index.md#Check, and send a test mail': {
    after: 'grep -rqs you@example.com "$KEYWARD_DATA_DIR/outbox"',
  },
}

/** Helpers the block scripts share: the background start of a server, its probe and its stop. */
const PRELUDE = `set -eu
set -m
# Waits until the server started as job $2 answers at $1, then stops it (its whole group).
__serves() {
  local url=$1 pid=$2
  for _ in $(seq 1 900); do
    if curl -ksf -o /dev/null "$url"; then
      kill -TERM -- "-$pid" 2>/dev/null || true
      wait "$pid" || true
      return 0
    fi
    if ! kill -0 "$pid" 2>/dev/null; then echo "the server exited before answering $url" >&2; return 1; fi
    sleep 0.5
  done
  kill -TERM -- "-$pid" 2>/dev/null || true
  echo "no answer from $url" >&2
  return 1
}
`

/** A printed `api start` line, run in the background until it answers at the address it names. */
const backgroundStarts = (code: string) =>
  code
    .split('\n')
    .map((line) => {
      if (!/^\s*npx api start\b/.test(line)) return line
      const command = line.replace(/\s+#.*$/, '')
      const port = /--port\s+(\d+)/.exec(command)?.[1] ?? '8080'
      const scheme = command.includes('--tls-cert') ? 'https' : 'http'
      return `${command} >>"$S/server.log" 2>&1 &\n__serves ${scheme}://127.0.0.1:${port}/healthcheck/status.json $!`
    })
    .join('\n')

const scriptOf = (block: Block) => {
  const scenario = SCENARIOS[key(block)] ?? {}
  const body =
    block.language === 'sql'
      ? `psql -h 127.0.0.1 -U postgres -v ON_ERROR_STOP=1 -q <<'SQL'\n${block.code}SQL`
      : backgroundStarts(block.code)
  return `${PRELUDE}cd "$S/checkout"\nset -x\n${scenario.before ?? ''}\n# --- as printed on ${block.page}\n${body}\n# ---\n${scenario.after ?? ''}\n`
}

/** Sets the namespace up, then runs each block's script in order, one status line per block. */
const driver = (count: number) => `set -eu
ip link set lo up
cp -a /etc "$S/etc" && mount --bind "$S/etc" /etc
echo '127.0.0.1 db.internal' >> /etc/hosts
mkdir -p /etc/keyward
mount -t tmpfs tmpfs /srv
mkdir -p "$S/pg" && chown postgres "$S/pg"
PG=/usr/lib/postgresql/15/bin
[ -x "$PG/initdb" ] || PG=$(dirname "$(command -v initdb)")
runuser -u postgres -- "$PG/initdb" -D "$S/pg/data" -U postgres --auth=trust -E UTF8 >/dev/null
runuser -u postgres -- "$PG/pg_ctl" -D "$S/pg/data" -w -l "$S/pg/log" -o "-c listen_addresses=127.0.0.1 -p 5432 -k $S/pg" start >/dev/null
trap 'runuser -u postgres -- "$PG/pg_ctl" -D "$S/pg/data" -m fast stop >/dev/null' EXIT
createdb -h 127.0.0.1 -U postgres sandbox
for i in $(seq 0 ${count - 1}); do
  if bash "$S/block-$i.sh" >"$S/block-$i.log" 2>&1; then echo "$i ok"; else echo "$i failed $?"; fi
done
`

test('every command block of the hosting guide runs in the sandbox, is run by a named test, or calls only real commands', (t) => {
  const blocks = commandBlocks()
  t.true(blocks.filter((block) => block.sandbox).length >= 10)
  for (const block of blocks.filter((block) => !block.sandbox)) {
    const elsewhere = ELSEWHERE[key(block)]
    if (elsewhere) t.true(existsSync(join(ROOT, elsewhere.test)), elsewhere.test)
    else
      t.deepEqual(
        unrunnableBlockProblems(block),
        [],
        `${key(block)}: neither marked sandbox nor run by a named test, so it may only call real Keyward commands and host tools`,
      )
  }
  // A listed block that left the guide is dropped from the list too.
  for (const listed of Object.keys(ELSEWHERE))
    t.true(
      blocks.some((block) => !block.sandbox && key(block) === listed),
      `${listed} is no longer in the guide`,
    )
  for (const listed of Object.keys(SCENARIOS))
    t.true(
      blocks.some((block) => block.sandbox && key(block) === listed),
      `${listed} is no longer a sandbox block`,
    )
})

test('the sandbox blocks of the hosting guide run as printed', async (t) => {
  t.timeout(30 * 60_000)
  if (process.getuid?.() !== 0)
    return t.fail('the sandbox needs root for its namespaces (CI runs as root)')
  const blocks = commandBlocks().filter((block) => block.sandbox)
  const S = mkdtempSync(join(tmpdir(), 'keyward-hosting-'))
  t.teardown(() => rmSync(S, { recursive: true, force: true }))
  // PostgreSQL runs as its own user and must reach its folder.
  chmodSync(S, 0o711)
  // A checkout of the sources, as the guide's commands expect to run in one.
  mkdirSync(join(S, 'checkout'))
  for (const entry of ['package.json', 'bin', 'node_modules'])
    symlinkSync(join(ROOT, entry), join(S, 'checkout', entry))
  // The certificate the HTTPS page names, from "the certificate authority".
  const cert = makeCertificate(S, 'vault')
  blocks.forEach((block, i) => {
    let script = scriptOf(block)
    if (block.code.includes('/etc/keyward/tls/'))
      script = script.replace(
        '# --- as printed',
        `mkdir -p /etc/keyward/tls && cp "${cert.cert}" /etc/keyward/tls/fullchain.pem && cp "${cert.key}" /etc/keyward/tls/privkey.pem\n# --- as printed`,
      )
    writeFileSync(join(S, `block-${i}.sh`), script)
  })
  writeFileSync(join(S, 'driver.sh'), driver(blocks.length))
  const env = {
    PATH: process.env.PATH,
    S,
    HOME: join(S, 'home'),
    DATABASE_URL: 'postgres://postgres@127.0.0.1:5432/sandbox',
    KEYWARD_DATA_DIR: join(S, 'data'),
    KEYWARD_CACHE_DIR: join(S, 'cache'),
  }
  mkdirSync(env.HOME)
  const child = spawn(
    'unshare',
    // A PID namespace too: whatever a block left running ends with the driver, or with this test.
    [
      '--net',
      '--mount',
      '--propagation',
      'private',
      '--pid',
      '--fork',
      '--kill-child',
      'bash',
      join(S, 'driver.sh'),
    ],
    {
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  )
  let out = ''
  let err = ''
  child.stdout.on('data', (chunk) => {
    out += chunk
  })
  child.stderr.on('data', (chunk) => {
    err += chunk
  })
  const code = await new Promise<number | null>((resolve) => child.once('close', resolve))
  t.is(code, 0, err)
  const results = new Map(
    out
      .trim()
      .split('\n')
      .map((line) => [Number(line.split(' ')[0]), line]),
  )
  blocks.forEach((block, i) => {
    const log = existsSync(join(S, `block-${i}.log`))
      ? readFileSync(join(S, `block-${i}.log`), 'utf8')
      : ''
    t.is(results.get(i), `${i} ok`, `${key(block)}:\n${log.slice(-3000)}`)
  })
})

test('a block that cannot run is still checked: an unknown command, option, program or table is caught', (t) => {
  const block = (language: string, code: string): Block => ({
    page: 'x.md',
    language,
    sandbox: false,
    title: 'x',
    code,
  })
  t.deepEqual(
    unrunnableBlockProblems(
      block('bash', 'sudo systemctl stop keyward\nnpx api migrate --status\n'),
    ),
    [],
  )
  t.deepEqual(unrunnableBlockProblems(block('bash', 'npx api migrate --stauts\n')), [
    'api migrate: no option --stauts',
  ])
  t.deepEqual(unrunnableBlockProblems(block('bash', 'sudo -u keyward keyward-api usr create\n')), [
    'api: "usr create" names no command',
  ])
  t.deepEqual(unrunnableBlockProblems(block('bash', 'curl https://example.com\n')), [
    'curl is neither Keyward nor a host tool',
  ])
  t.deepEqual(unrunnableBlockProblems(block('sql', 'SELECT * FROM mail_queues;\n')), [
    'no table mail_queues',
  ])
})
