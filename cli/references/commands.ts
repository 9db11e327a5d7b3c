// The command-line reference pages, generated from the commander definitions of `api` and `docs`
// so that a command or a flag cannot exist without its line in the manual.
import type { Command, Option } from 'commander'
import { COMMAND_GUIDES } from './command-guides.ts'

export interface CommandPage {
  /** Path under content/docs/, such as `hosting/cli-reference/api-start.md`. */
  path: string
  /** `api start`, `api user create`, `docs build`. */
  name: string
  markdown: string
}

const escapeCell = (text: string) => text.replaceAll('|', '\\|')

/**
 * Prose from a definition, for a table cell: a placeholder such as `<root>` is text, not an HTML
 * tag the page would drop.
 * Exported for the references test, which finds each description as the page writes it.
 */
export const escapeProse = (text: string) =>
  escapeCell(text).replaceAll('<', '&lt;').replaceAll('>', '&gt;')

/** Every command that does something (a command with subcommands is only a group). */
const leaves = (command: Command, prefix: string[]): { name: string[]; command: Command }[] =>
  command.commands.flatMap((sub) =>
    sub.commands.length
      ? leaves(sub, [...prefix, sub.name()])
      : [{ name: [...prefix, sub.name()], command: sub }],
  )

const optionRow = (option: Option) => {
  const defaultValue =
    option.defaultValue === undefined || option.negate
      ? option.mandatory
        ? 'required'
        : ''
      : `\`${String(option.defaultValue)}\``
  return `| \`${escapeCell(option.flags)}\` | ${escapeProse(option.description)} | ${defaultValue} |`
}

const optionTable = (options: readonly Option[]) =>
  options.length
    ? [
        '| Flag | Meaning | Default |',
        '|---|---|---|',
        ...options.map(optionRow),
        '| `-h, --help` | print this help and exit |  |',
      ].join('\n')
    : 'None but `-h, --help`.'

const synopsis = (program: Command, name: string[], command: Command) => {
  const args = command.registeredArguments.map((a) =>
    a.required ? `<${a.name()}>` : `[${a.name()}]`,
  )
  const required = command.options
    .filter((o) => o.mandatory)
    .map((o) => `${o.long} ${o.flags.match(/<[^>]+>/)?.[0] ?? ''}`.trim())
  const optional = command.options.some((o) => !o.mandatory) ? ['[options]'] : []
  const globals = program.options.length ? ['[global options]'] : []
  return ['npx', program.name(), ...globals, ...name, ...required, ...optional, ...args].join(' ')
}

const slugOf = (program: Command, name: string[]) => [program.name(), ...name].join('-')

/** One page per command of `program`, in the order the program declares them. */
export const renderCommandPages = (program: Command, folder: string): CommandPage[] =>
  leaves(program, []).map(({ name, command }, index) => {
    const full = [program.name(), ...name].join(' ')
    const guide = COMMAND_GUIDES[full]
    const args = command.registeredArguments
    const argumentTable = args.length
      ? [
          '## Arguments',
          '',
          '| Argument | Meaning |',
          '|---|---|',
          ...args.map((a) => `| \`${a.name()}\` | ${escapeProse(a.description)} |`),
          '',
        ].join('\n')
      : ''
    const globals = program.options.length
      ? [
          '## Global options',
          '',
          `These come before the command name, as in \`npx ${program.name()} ${program.options[0].long} ${program.options[0].flags.match(/<[^>]+>/)?.[0] ?? ''} ${name.join(' ')}\`.`,
          '',
          optionTable(program.options),
          '',
        ].join('\n')
      : ''
    const description = command.description()
    const markdown = `---
title: ${full}
description: "${full}: ${description.replaceAll('"', "'")}."
sidebar_position: ${index + 1}
keywords:
  - ${program.name()}
  - ${name.join(' ')}
  - command line
---

${description[0].toUpperCase()}${description.slice(1)}.

\`\`\`text
${synopsis(program, name, command)}
\`\`\`

${argumentTable}
## Options

${optionTable(command.options)}

${globals}${guide ?? ''}
`
    return {
      path: `${folder}/${slugOf(program, name)}.md`,
      name: full,
      markdown: `${markdown.replace(/\n{3,}/g, '\n\n').trimEnd()}\n`,
    }
  })

/** The section's home page: the commands of each program, one line each. */
export const renderCommandIndex = (programs: { program: Command; intro: string }[]): string => {
  const sections = programs.map(({ program, intro }) => {
    const rows = leaves(program, []).map(({ name, command }) => {
      const full = [program.name(), ...name].join(' ')
      return `| [\`${full}\`](./${slugOf(program, name)}.md) | ${escapeProse(command.description())} |`
    })
    return `## \`${program.name()}\`

${intro}

| Command | What it does |
|---|---|
${rows.join('\n')}`
  })
  return `---
title: Command-line reference
description: Every command and flag of the api and docs command lines, generated from their definitions.
sidebar_label: Command-line reference
sidebar_position: 90
keywords:
  - cli
  - command line
  - npx api
  - flags
---

Keyward has two command lines. Each page of this section lists one command's flags, generated
from the command's own definition by \`npm run docs:references\` (a test fails when a page and the
code differ), followed by notes on using it. \`npx api --help\` and \`npx api <command> --help\`
print the same flags in a terminal. Commands exit with status 0 on success and 1 on an error,
printing one line that names the problem.

${sections.join('\n\n')}

The settings that both \`api\` commands and the server read are in the
[environment reference](../configure/environment-reference.md).
`
}
