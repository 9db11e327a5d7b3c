// Comments: threads of short notes on resources, written by anyone who can read the resource and
// changed only by their authors.
import { definePlugin } from '../../api/plugin.ts'
import { CommentSchema } from './entities/Comment.ts'
import { routes } from './routes.ts'

export { deleteCommentsOf } from './service.ts'
export { CommentSchema }

export default definePlugin({
  name: 'comments',
  dependsOn: ['users', 'permissions'],
  entities: [CommentSchema],
  routes,
})
