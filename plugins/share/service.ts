// Sharing a resource: permission changes and the secrets of the users who gain access, applied
// together or not at all, leaving exactly one secret per user who can read the resource; and
// the same changes simulated, to tell the client whose secrets to encrypt.
import type { EntityManager } from '@mikro-orm/postgresql'
import type { AppContext } from '../../api/app.ts'
import { badRequest } from '../../api/errors.ts'
import { selectRows } from '../../api/orm.ts'
import { ErrorTree } from '../../api/validation.ts'
import { announceAccessChange, applyPermissionChanges } from '../permissions/index.ts'
import {
  checkSecretEntries,
  deleteSecretsExcept,
  usersWithoutSecret,
  writeSecrets,
} from '../secrets/index.ts'
import { messages } from './messages.ts'

const invalid = (errors: Record<string, unknown>) => badRequest(messages.validation, errors)

/**
 * A v5 resource whose metadata is encrypted to its owner's personal key is not shared at all
 * (simulated or not, as passbolt): the client must first move it to the shared metadata key.
 */
const assertShareable = async (em: EntityManager, resourceId: string) => {
  const [resource] = await selectRows<{ metadata_key_type: string | null }>(em, (knex) =>
    knex('resources').where('id', resourceId).select('metadata_key_type'),
  )
  if (resource?.metadata_key_type === 'user_key') throw badRequest(messages.keyType)
}

export const simulateShare = async (
  em: EntityManager,
  resourceId: string,
  changes: unknown,
  actorId: string,
) => {
  await assertShareable(em, resourceId)
  const outcome = await applyPermissionChanges(em, {
    aco: 'Resource',
    acoId: resourceId,
    changes,
    actorId,
    dryRun: true,
  })
  if (outcome.errors) throw invalid({ permissions: outcome.errors })
  return {
    changes: {
      added: outcome.gained.map((id) => ({ User: { id } })),
      removed: outcome.lost.map((id) => ({ User: { id } })),
    },
  }
}

export const shareResource = async (
  em: EntityManager,
  app: AppContext,
  resourceId: string,
  body: { permissions?: unknown; secrets?: unknown },
  actorId: string,
) => {
  await assertShareable(em, resourceId)
  const outcome = await applyPermissionChanges(em, {
    aco: 'Resource',
    acoId: resourceId,
    changes: body.permissions,
    actorId,
  })
  if (outcome.errors) throw invalid({ permissions: outcome.errors })
  const entries = Array.isArray(body.secrets) ? body.secrets : []
  const checked = await checkSecretEntries(em, entries)
  if (checked.errors) throw invalid({ secrets: checked.errors })
  const reach = new Set(outcome.after)
  const errors = new ErrorTree()
  for (const [index, entry] of checked.entries.entries())
    if (!reach.has(entry.user_id))
      errors.add(['secrets', index, 'resource_id'], 'has_resource_access', messages.accessDenied)
  if (!errors.empty) throw invalid(errors.tree)
  await writeSecrets(em, resourceId, checked.entries, actorId)
  await deleteSecretsExcept(em, resourceId, outcome.after)
  if ((await usersWithoutSecret(em, resourceId, outcome.after)).length > 0)
    throw invalid({ secrets: { secrets_provided: messages.secretsProvided } })
  await announceAccessChange(em, app, {
    aco: 'Resource',
    id: resourceId,
    gained: outcome.gained,
    lost: outcome.lost,
  })
}
