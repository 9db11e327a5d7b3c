// The shapes of stored settings as the API answers them: an organisation setting is its value's
// fields beside its row's identity and dates (absent while the defaults apply); an account
// setting is its row.
import { z } from 'zod'
import { stamp, storedId } from '../../api/response-schemas.ts'

/** The row fields an organisation setting answers beside its value, once one is stored. */
export const storedSettingFields = {
  id: storedId.optional(),
  created: stamp.optional(),
  modified: stamp.optional(),
  created_by: storedId.nullable().optional(),
  modified_by: storedId.nullable().optional(),
}

/** An organisation setting answered as `{...row, ...value}`. */
export const organizationSettingResponse = <Shape extends z.ZodRawShape>(value: Shape) =>
  z.object({ ...storedSettingFields, ...value })

/** One row of a user's settings (`theme`, `locale`). */
export const accountSettingResponse = z.object({
  id: storedId,
  user_id: storedId,
  property: z.string(),
  value: z.string(),
  created: stamp,
  modified: stamp,
})

/** One organisation setting row, value included (the organisation locale). */
export const organizationSettingRowResponse = <Value extends z.ZodType>(value: Value) =>
  z.object({
    id: storedId,
    property: z.string(),
    value,
    created: stamp,
    modified: stamp,
    created_by: storedId.nullable(),
    modified_by: storedId.nullable(),
  })
