// The standalone v5 types passbolt added after 5.0 (custom fields 5.3, note 5.6, PIN code
// 5.12), with passbolt's fixed ids and definitions, so the clients offer them here too.
import { Migration } from '@mikro-orm/migrations'

const text = (maxLength: number) => ({ type: 'string', maxLength })
const nullable = (schema: object) => ({ anyOf: [schema, { type: 'null' }] })
const objectType = { type: 'string', enum: ['PASSBOLT_SECRET_DATA'] }

const icon = {
  type: 'object',
  required: [],
  properties: {
    type: { type: 'string', enum: ['keepass-icon-set', 'passbolt-icon-set'] },
    value: { type: 'integer', minimum: 0 },
    background_color: nullable({ type: 'string', pattern: '^#(?:[0-9A-Fa-f]{6}|[0-9A-Fa-f]{8})$' }),
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

const uris = { type: 'array', items: nullable(text(1024)), maxItems: 32 }
const description = nullable(text(10000))
const secretDescription = nullable(text(50000))

const TYPES = [
  {
    id: '0551544e-2ccd-5ce8-95cf-86f0aab0f827',
    slug: 'v5-custom-fields',
    name: 'Standalone custom fields',
    description: 'A resource with standalone custom fields.',
    definition: {
      resource: {
        type: 'object',
        required: ['name', 'custom_fields'],
        properties: {
          name: text(255),
          uris,
          description,
          icon,
          custom_fields: customFields('metadata_key', 'metadata_value'),
        },
      },
      secret: {
        type: 'object',
        required: ['object_type', 'custom_fields'],
        properties: {
          object_type: objectType,
          custom_fields: customFields('secret_key', 'secret_value'),
        },
      },
    },
  },
  {
    id: '0a72c76b-b8e6-53f0-8bef-0a8ca6b5c764',
    slug: 'v5-note',
    name: 'Standalone note',
    description: 'A resource with standalone notes.',
    definition: {
      resource: {
        type: 'object',
        required: ['name'],
        properties: { name: text(255), uris, description, icon },
      },
      secret: {
        type: 'object',
        required: ['description', 'object_type'],
        properties: { object_type: objectType, description: secretDescription },
      },
    },
  },
  {
    id: '4357bbc7-ed4d-52ff-b59d-9f7f17881bb3',
    slug: 'v5-pin-code',
    name: 'Standalone pin code',
    description: 'A resource with a standalone pin code.',
    definition: {
      resource: {
        type: 'object',
        required: ['name'],
        properties: { name: text(255), description, icon },
      },
      secret: {
        type: 'object',
        required: ['pin_code', 'object_type'],
        properties: {
          object_type: objectType,
          pin_code: { type: 'string', minLength: 4, maxLength: 12, pattern: '^\\d+$' },
          description: secretDescription,
        },
      },
    },
  },
]

export class Migration20261126120000StandaloneTypes extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      this.getKnex()
        .insert(TYPES.map((type) => ({ ...type, definition: JSON.stringify(type.definition) })))
        .into('resource_types')
        .onConflict('id')
        .ignore(),
    )
  }
}
