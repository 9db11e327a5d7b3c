// `api user create`: registers a user from the command line and prints the setup link (the
// first administrator is made this way).
import type { Command } from 'commander'
import type { AppContext } from '../../api/app.ts'
import { HttpError } from '../../api/errors.ts'
import { registerUser } from './service.ts'

interface CreateOptions {
  username: string
  firstName: string
  lastName: string
  admin?: boolean
}

export const registerCommands = (
  program: Command,
  withApp: <T>(work: (app: AppContext) => Promise<T>) => Promise<T>,
) => {
  const user = program.command('user').description('manage users')
  user
    .command('create')
    .description('register a user (inactive until setup) and print the setup link')
    .requiredOption('--username <email>', 'email address, used to sign in')
    .requiredOption('--first-name <name>', 'first name')
    .requiredOption('--last-name <name>', 'last name')
    .option('--admin', 'make the user an administrator')
    .action(async (options: CreateOptions) => {
      const { z } = await import('zod')
      const checked = z
        .object({
          username: z.email().max(255),
          firstName: z.string().trim().min(1).max(255),
          lastName: z.string().trim().min(1).max(255),
        })
        .safeParse(options)
      if (!checked.success) {
        for (const issue of checked.error.issues)
          console.error(
            `--${String(issue.path[0]).replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}: ${issue.message}`,
          )
        process.exit(1)
      }
      await withApp(async (app) => {
        try {
          const { url } = await registerUser(app.orm.em.fork(), app, {
            ...checked.data,
            role: options.admin ? 'admin' : 'user',
          })
          console.log(url)
        } catch (error) {
          const taken =
            error instanceof HttpError &&
            (error.body as { username?: { uniqueUsername?: string } }).username?.uniqueUsername
          if (taken) {
            console.error('--username: the username is already in use')
            process.exitCode = 1
            return
          }
          throw error
        }
      })
    })
}
