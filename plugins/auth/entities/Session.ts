// A server-side cookie session, so any API process can serve any request. The id is the
// SHA-256 of the cookie value: a leaked table does not hand out live cookies.
import { defineEntity, type InferEntity } from '@mikro-orm/core'

const p = defineEntity.properties

export const SessionSchema = defineEntity({
  name: 'Session',
  tableName: 'sessions',
  properties: {
    id: p.string().length(64).primary(),
    userId: p.uuid().nullable(),
    lastActivity: p.datetime(),
    created: p.datetime().onCreate(() => new Date()),
  },
})

export type Session = InferEntity<typeof SessionSchema>
