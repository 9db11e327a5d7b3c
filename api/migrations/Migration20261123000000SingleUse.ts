// Uniqueness the database enforces for single-use values: a key is bound to one live account,
// and a client-chosen token (a JWT verify token) is recorded once per user and type.
import { Migration } from '@mikro-orm/migrations'

export class Migration20261123000000SingleUse extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      'create unique index gpgkeys_fingerprint_live_unique on gpgkeys (fingerprint) where not deleted',
    )
    this.addSql(
      'create unique index authentication_tokens_type_user_token_unique on authentication_tokens (type, user_id, token)',
    )
  }
}
