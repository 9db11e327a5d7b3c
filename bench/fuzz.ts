// A longer fuzzing run than the suite's, on a random seed (or FUZZ_SEED), against a fresh
// server and database: prints its figures and every finding, with the seed to replay it.
// Usage: npm run fuzz -- [--cases 60] [--seed N]
import { parseArgs } from 'node:util'
import type { ExecutionContext } from 'ava'
import { startTestApi } from '../test/helpers/api.ts'
import { runFuzz } from '../test/robustness/fuzz/run.ts'
import {
  APP_URL,
  invariantViolations,
  makeWorld,
  signInFailures,
} from '../test/robustness/fuzz/world.ts'

const { values } = parseArgs({
  options: {
    cases: { type: 'string', default: '60' },
    seed: { type: 'string', default: process.env.FUZZ_SEED ?? String(Date.now() % 2 ** 31) },
  },
})
const seed = Number(values.seed)
const teardowns: (() => unknown)[] = []
// The test helpers register their clean-up on a test's context; this run is its own test.
const context = {
  teardown: (fn: () => unknown) => teardowns.push(fn),
} as unknown as ExecutionContext
console.log(
  `fuzzing with seed ${seed} (replay: npm run fuzz -- --seed ${seed} --cases ${values.cases})`,
)
let failed = true
try {
  const api = await startTestApi(context, {
    env: {
      KEYWARD_APP_URL: APP_URL,
      KEYWARD_BODY_LIMIT: '256kb',
      KEYWARD_AUTH_RATE_LIMIT: '100000',
      KEYWARD_AUTH_RATE_LIMIT_PER_ADDRESS: '100000',
    },
  })
  const world = await makeWorld(api)
  const { figures, findings, uncovered } = await runFuzz(api, world, {
    seed,
    casesPerOperation: Number(values.cases),
    hugeSize: 300 * 1024,
    progress: (now) =>
      console.log(`${now.requests} requests, ${now.fiveHundreds} 5xx, ${now.seconds.toFixed(0)} s`),
  })
  for (const finding of findings) console.log(JSON.stringify(finding))
  const signIns = await signInFailures(api, world)
  const invariants = await invariantViolations(api)
  console.log(
    JSON.stringify({
      ...figures,
      uncovered,
      signInFailures: signIns,
      invariantViolations: invariants,
    }),
  )
  failed =
    findings.length > 0 || signIns.length > 0 || invariants.length > 0 || uncovered.length > 0
  if (failed) console.log(`FAILED with seed ${seed}`)
} finally {
  for (const fn of teardowns.reverse()) await fn()
}
process.exit(failed ? 1 : 0)
