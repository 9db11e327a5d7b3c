// What `contain[...]` may add to comments: their author and last editor, with profile and
// avatar, loaded for every comment of the threads (replies too) in one query.
import type { ContainContext, ContainSpec } from '../../api/plugin.ts'
import { embeddedUsers } from '../users/index.ts'
import { type CommentThread, flattenThreads } from './service.ts'

const people = (
  field: 'creator' | 'modifier',
  source: 'created_by' | 'modified_by',
): ContainSpec => ({
  load: async (threads: CommentThread[], { em, app }: ContainContext) => {
    const comments = flattenThreads(threads)
    const users = await embeddedUsers(
      em,
      comments.map((comment) => comment[source]).filter((id): id is string => Boolean(id)),
      { profile: true, appUrl: app.config.appUrl },
    )
    for (const comment of comments)
      Object.assign(comment, { [field]: users.get(comment[source] ?? '') ?? null })
  },
})

export const commentContain = {
  creator: people('creator', 'created_by'),
  modifier: people('modifier', 'modified_by'),
} satisfies Record<string, ContainSpec>
