// Every migration, in order. New migrations are appended here; they never change once released.
import { Migration20261122000000Initial } from './Migration20261122000000Initial.ts'
import { Migration20261122000100Sessions } from './Migration20261122000100Sessions.ts'

export const migrationsList = [
  { name: 'Migration20261122000000Initial', class: Migration20261122000000Initial },
  { name: 'Migration20261122000100Sessions', class: Migration20261122000100Sessions },
]
