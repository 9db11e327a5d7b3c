// The resource types every passbolt server ships, with their fixed ids (UUIDv5 of
// `resource-types.id.<slug>` in passbolt's namespace) and definitions: JSON schemas of a
// resource's cleartext (v4) or decrypted (v5) metadata, and of its decrypted secret. Clients
// check what they encrypt against these.
import { Migration } from '@mikro-orm/migrations'

const text = (maxLength: number) => ({ type: 'string', maxLength })
const nullable = (schema: object) => ({ anyOf: [schema, { type: 'null' }] })

const totp = {
  type: 'object',
  required: ['secret_key', 'digits', 'algorithm'],
  properties: {
    algorithm: { type: 'string', minLength: 4, maxLength: 6 },
    secret_key: text(1024),
    digits: { type: 'number', minimum: 6, exclusiveMaximum: 9 },
    period: { type: 'number' },
  },
}

const v4Resource = (fields: ('username' | 'uri' | 'description')[]) => ({
  type: 'object',
  required: ['name'],
  properties: {
    name: text(255),
    ...(fields.includes('username') ? { username: nullable(text(255)) } : {}),
    ...(fields.includes('uri') ? { uri: nullable(text(1024)) } : {}),
    ...(fields.includes('description') ? { description: nullable(text(10000)) } : {}),
  },
})

const v5Icon = {
  type: 'object',
  required: [],
  properties: {
    type: { type: 'string', enum: ['keepass-icon-set', 'passbolt-icon-set'] },
    value: { type: 'integer', minimum: 0 },
    background_color: nullable({
      type: 'string',
      pattern: '^#(?:[0-9A-Fa-f]{6}|[0-9A-Fa-f]{8})$',
    }),
  },
}

const customFields = (key: string, value: string) => ({
  type: 'array',
  maxItems: 128,
  items: {
    type: 'object',
    required: ['id', 'type'],
    properties: {
      id: { type: 'string', format: 'uuid' },
      type: { type: 'string', enum: ['text', 'password', 'boolean', 'number', 'uri'] },
      [key]: nullable(text(255)),
      [value]: { anyOf: [text(20000), { type: 'number' }, { type: 'boolean' }, { type: 'null' }] },
    },
  },
})

const v5Resource = (fields: ('username' | 'custom_fields')[]) => ({
  type: 'object',
  required: ['name'],
  properties: {
    name: text(255),
    ...(fields.includes('username') ? { username: nullable(text(255)) } : {}),
    uris: { type: 'array', items: nullable(text(1024)), maxItems: 32 },
    description: nullable(text(10000)),
    icon: v5Icon,
    ...(fields.includes('custom_fields')
      ? { custom_fields: customFields('metadata_key', 'metadata_value') }
      : {}),
  },
})

const objectType = { type: 'string', enum: ['PASSBOLT_SECRET_DATA'] }

interface ResourceTypeSeed {
  id: string
  slug: string
  name: string
  description: string
  definition: { resource: object; secret: object }
}

const RESOURCE_TYPES: readonly ResourceTypeSeed[] = [
  {
    id: '669f8c64-242a-59fb-92fc-81f660975fd3',
    slug: 'password-string',
    name: 'Simple password',
    description: 'The original passbolt resource type, where the secret is a non empty string.',
    definition: { resource: v4Resource(['username', 'uri', 'description']), secret: text(4096) },
  },
  {
    id: 'a28a04cd-6f53-518a-967c-9963bf9cec51',
    slug: 'password-and-description',
    name: 'Password with description',
    description: 'A resource with the password and the description encrypted.',
    definition: {
      resource: v4Resource(['username', 'uri']),
      secret: {
        type: 'object',
        required: ['password'],
        properties: { password: text(4096), description: nullable(text(10000)) },
      },
    },
  },
  {
    id: '05ba5c75-504d-5ad6-819a-83af68867d86',
    slug: 'totp',
    name: 'Standalone TOTP',
    description: 'A resource with standalone TOTP fields.',
    definition: {
      resource: v4Resource(['uri']),
      secret: { type: 'object', required: ['totp'], properties: { totp } },
    },
  },
  {
    id: '8cca88d9-a3f6-56df-b860-3ef08de5c5c4',
    slug: 'password-description-totp',
    name: 'Password, Description and TOTP',
    description: 'A resource with the password, the description and the TOTP encrypted.',
    definition: {
      resource: v4Resource(['username', 'uri']),
      secret: {
        type: 'object',
        required: ['password', 'totp'],
        properties: { password: text(4096), description: nullable(text(10000)), totp },
      },
    },
  },
  {
    id: '761e5863-e17e-5ded-b3c2-76ffd5d0a2dc',
    slug: 'v5-password-string',
    name: 'Simple Password (Deprecated)',
    description: 'The original passbolt resource type, where the secret is a non empty string.',
    definition: { resource: v5Resource(['username']), secret: text(4096) },
  },
  {
    id: 'dd1f723d-0d1e-513f-8218-4055dc0530d0',
    slug: 'v5-default',
    name: 'Default resource type',
    description: 'The new default resource type introduced with v5.',
    definition: {
      resource: v5Resource(['username', 'custom_fields']),
      secret: {
        type: 'object',
        required: ['password'],
        properties: {
          object_type: objectType,
          password: text(4096),
          description: nullable(text(50000)),
          custom_fields: customFields('secret_key', 'secret_value'),
        },
      },
    },
  },
  {
    id: 'bb2280b5-c4d9-569c-9337-62b307f1139c',
    slug: 'v5-totp-standalone',
    name: 'Standalone TOTP',
    description: 'The new standalone TOTP resource type introduced with v5.',
    definition: {
      resource: v5Resource([]),
      secret: { type: 'object', required: ['totp'], properties: { object_type: objectType, totp } },
    },
  },
  {
    id: '7438294d-f71c-5164-ba95-d9e60e295564',
    slug: 'v5-default-with-totp',
    name: 'Default resource type with TOTP',
    description: 'The new default resource type with a TOTP introduced with v5.',
    definition: {
      resource: v5Resource(['username', 'custom_fields']),
      secret: {
        type: 'object',
        required: ['password', 'totp'],
        properties: {
          object_type: objectType,
          password: text(4096),
          description: nullable(text(50000)),
          totp,
          custom_fields: customFields('secret_key', 'secret_value'),
        },
      },
    },
  },
]

export class Migration20261123010000ResourceTypes extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      this.getKnex()
        .insert(
          RESOURCE_TYPES.map((type) => ({ ...type, definition: JSON.stringify(type.definition) })),
        )
        .into('resource_types'),
    )
  }
}
