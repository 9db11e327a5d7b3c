// Reports: passbolt's community edition declares the routes but registers no report (its paid
// edition adds them), so every slug is unknown. Keyward answers the same: administrators get 400
// naming the report, others 403.
import { z } from 'zod'
import { HttpError } from '../../api/errors.ts'
import { definePlugin, defineRoute } from '../../api/plugin.ts'

const slug = z.string().max(255)

const unknownReport = (slug: string) =>
  new HttpError(400, `The requested report \`${slug}\` does not exist.`)

const reportRoute = (path: string, params: z.ZodObject) =>
  defineRoute({
    method: 'GET',
    path,
    action: 'ReportsView.view',
    summary: 'A report (none is offered)',
    description:
      'Always 400 for administrators: no report is offered, as in passbolt’s community edition. 403 for other users.',
    auth: 'admin',
    // Administrators only, which `auth` already requires.
    permission: 'none',
    params,
    response: z.null(),
    handler: ({ params }) => {
      throw unknownReport((params as { reportSlug: string }).reportSlug)
    },
  })

export default definePlugin({
  name: 'reports',
  routes: [
    reportRoute('/reports/{reportSlug}.json', z.object({ reportSlug: slug })),
    reportRoute(
      '/reports/{reportSlug}/{arg1}.json',
      z.object({ reportSlug: slug, arg1: z.string().max(255) }),
    ),
  ],
})
