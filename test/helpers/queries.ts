// Counts the SQL statements the server runs while a piece of test work (usually one request)
// is under way, transactions included.
import { onQuery } from '../../api/orm.ts'
import type { TestApi } from './api.ts'

export const countQueries = async <T>(
  api: TestApi,
  work: () => Promise<T>,
): Promise<{ result: T; statements: string[] }> => {
  const statements: string[] = []
  const stop = onQuery(api.app.orm, (sql) => statements.push(sql))
  try {
    return { result: await work(), statements }
  } finally {
    stop()
  }
}
