// Every migration, in order. New migrations are appended here; they never change once released.
import { Migration20261122000000Initial } from './Migration20261122000000Initial.ts'
import { Migration20261122000100Sessions } from './Migration20261122000100Sessions.ts'
import { Migration20261123000000SingleUse } from './Migration20261123000000SingleUse.ts'
import { Migration20261123000100ChangeFeed } from './Migration20261123000100ChangeFeed.ts'
import { Migration20261123010000ResourceTypes } from './Migration20261123010000ResourceTypes.ts'
import { Migration20261123020000FolderTree } from './Migration20261123020000FolderTree.ts'
import { Migration20261123140000TagsComments } from './Migration20261123140000TagsComments.ts'
import { Migration20261123150000GroupNames } from './Migration20261123150000GroupNames.ts'
import { Migration20261123160000Avatars } from './Migration20261123160000Avatars.ts'
import { Migration20261126100000Throttles } from './Migration20261126100000Throttles.ts'
import { Migration20261126150000MailQueue } from './Migration20261126150000MailQueue.ts'
import { Migration20261126150100ScheduledJobs } from './Migration20261126150100ScheduledJobs.ts'
import { Migration20261127100000JsonText } from './Migration20261127100000JsonText.ts'
import { Migration20261127200000ListChanges } from './Migration20261127200000ListChanges.ts'
import { Migration20261127210000ListReaders } from './Migration20261127210000ListReaders.ts'

export const migrationsList = [
  { name: 'Migration20261122000000Initial', class: Migration20261122000000Initial },
  { name: 'Migration20261122000100Sessions', class: Migration20261122000100Sessions },
  { name: 'Migration20261123000000SingleUse', class: Migration20261123000000SingleUse },
  { name: 'Migration20261123000100ChangeFeed', class: Migration20261123000100ChangeFeed },
  { name: 'Migration20261123010000ResourceTypes', class: Migration20261123010000ResourceTypes },
  { name: 'Migration20261123020000FolderTree', class: Migration20261123020000FolderTree },
  { name: 'Migration20261123140000TagsComments', class: Migration20261123140000TagsComments },
  { name: 'Migration20261123150000GroupNames', class: Migration20261123150000GroupNames },
  { name: 'Migration20261123160000Avatars', class: Migration20261123160000Avatars },
  { name: 'Migration20261126100000Throttles', class: Migration20261126100000Throttles },
  { name: 'Migration20261126150000MailQueue', class: Migration20261126150000MailQueue },
  { name: 'Migration20261126150100ScheduledJobs', class: Migration20261126150100ScheduledJobs },
  { name: 'Migration20261127100000JsonText', class: Migration20261127100000JsonText },
  { name: 'Migration20261127200000ListChanges', class: Migration20261127200000ListChanges },
  { name: 'Migration20261127210000ListReaders', class: Migration20261127210000ListReaders },
]
