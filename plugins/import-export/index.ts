// Import, export and the account kit: the clients import and export passwords themselves (KDBX
// or CSV, encrypted on the client) and download the account kit for the desktop app; the server
// announces the features and the organisation's export policy.
import { z } from 'zod'
import { definePlugin, defineRoute } from '../../api/plugin.ts'

const FORMATS = ['kdbx', 'csv']

/** passbolt's export policy from its defaults: CSV exports (clear text) are not allowed. */
const exportPolicy = { allow_csv_format: false, source: 'default' as const }

export default definePlugin({
  name: 'import-export',
  routes: [
    defineRoute({
      method: 'GET',
      path: '/export-policies/settings.json',
      action: 'ExportPoliciesSettingsGet.get',
      summary: 'Whether passwords may be exported to CSV',
      description:
        '`allow_csv_format` false: the export screen offers KeePass (KDBX) only, whose file the client encrypts; `source` says where the policy comes from (`default`).',
      auth: 'user',
      // The organisation's policy, the same for every user.
      permission: 'none',
      response: z.object({
        allow_csv_format: z.boolean(),
        source: z.enum(['default', 'env', 'file', 'db']),
      }),
      handler: () => ({ ...exportPolicy }),
    }),
  ],
  settings: () => ({
    public: { exportPolicies: { enabled: true, version: '1.0.0' } },
    user: {
      import: { enabled: true, version: '2.0.1', config: { format: FORMATS } },
      export: { enabled: true, version: '2.0.0', config: { format: FORMATS } },
      // The account kit the extension downloads for the desktop app.
      desktop: { enabled: true, version: '1.0.0' },
    },
  }),
})
