// `api healthcheck`: the administrators' checks on the command line; exits 1 when one fails.
import type { Command } from 'commander'
import type { WithApp } from '../../api/plugin.ts'
import { runChecks } from './service.ts'

export const registerCommands = (program: Command, withApp: WithApp) => {
  program
    .command('healthcheck')
    .description("run the server's checks; exits 1 when one fails")
    .option('--send-test-mail <address>', 'also send a test mail to this address')
    .action((options: { sendTestMail?: string }) =>
      withApp(
        async (app) => {
          const checks = await runChecks(app, app.orm.em.fork(), {
            sendTestMail: options.sendTestMail,
          })
          for (const check of checks)
            console.log(
              `${check.ok ? 'ok  ' : check.level === 'error' ? 'FAIL' : 'warn'} ${check.domain}.${check.name}: ${check.description}`,
            )
          const failed = checks.filter((check) => !check.ok && check.level === 'error')
          console.log(failed.length ? `${failed.length} check(s) failed` : 'all checks passed')
          process.exitCode = failed.length ? 1 : 0
        },
        { migrate: false },
      ),
    )
}
