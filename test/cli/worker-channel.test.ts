import test from 'ava'
import { WorkerChannel } from '../../cli/workers/channel.ts'
import { startTsWorker } from '../../cli/workers/start-worker.ts'

const start = () =>
  new WorkerChannel<Record<string, unknown>, unknown>(
    startTsWorker(new URL('../fixtures/workers/echo-worker.ts', import.meta.url), { fresh: true }),
  )

test('answers come back to their requests, in the order sent, whatever each takes', async (t) => {
  const channel = start()
  t.teardown(() => channel.terminate())
  const answers = await Promise.all([
    channel.request({ type: 'slow', ms: 200, value: 'first' }),
    channel.request({ type: 'echo', value: { nested: [1, 2] } }),
    channel.request({ type: 'slow', ms: 10, value: 'third' }),
  ])
  t.deepEqual(answers, ['first', { nested: [1, 2] }, 'third'])
})

test("a failing request rejects with the worker's message; the worker goes on", async (t) => {
  const channel = start()
  t.teardown(() => channel.terminate())
  await t.throwsAsync(channel.request({ type: 'fail', message: 'no such page' }), {
    message: 'no such page',
  })
  t.is(await channel.request({ type: 'echo', value: 7 }), 7)
  t.false(channel.stopped)
})

test('work deferred by the worker runs after its answer and before the next request', async (t) => {
  const channel = start()
  t.teardown(() => channel.terminate())
  await Promise.all([
    channel.request({ type: 'later', value: 'a' }),
    channel.request({ type: 'later', value: 'b' }),
  ])
  t.deepEqual(await channel.request({ type: 'log' }), [
    'answer a',
    'after a',
    'answer b',
    'after b',
  ])
})

test('a worker that dies rejects every waiting request and any later one', async (t) => {
  const channel = start()
  const exiting = channel.request({ type: 'exit' })
  const waiting = channel.request({ type: 'echo', value: 'never answered' })
  await t.throwsAsync(exiting, { message: /exit code 3/ })
  await t.throwsAsync(waiting, { message: /exit code 3/ })
  t.true(channel.stopped)
  await t.throwsAsync(channel.request({ type: 'echo', value: 1 }), { message: /exit code 3/ })
})
