// The official clients' entity classes load and judge: a valid user passes, a broken one is
// refused with the field and rule, as the extension would refuse it.
import test from 'ava'
import { clientValidation } from '../helpers/client-entities.ts'

test('the official entity classes accept a well-formed role and refuse a malformed one', async (t) => {
  const role = {
    id: 'a58de6d3-f52c-5080-b79b-a601a647ac85',
    name: 'user',
    description: 'Logged in user',
    created: '2024-07-03T12:52:06+00:00',
    modified: '2024-07-03T12:52:06+00:00',
  }
  t.deepEqual(await clientValidation('RoleEntity', role), {})
  const broken = await clientValidation('RoleEntity', { ...role, id: 'nope' })
  t.truthy((broken.id as Record<string, string>)?.format)
})
