// The API reference's source (`apiReference` in site.config.ts): the OpenAPI document of every
// plugin the server ships, built from the same route declarations that validate its requests.
import { buildOpenApi } from '../api/openapi.ts'
import { assemblePlugins } from '../api/plugin-loader.ts'
import { plugins } from '../plugins/index.ts'

export default () => buildOpenApi(assemblePlugins(plugins))
