import { IsIn, IsObject, IsOptional, IsString } from 'class-validator';
import { JSONSchema } from 'class-validator-jsonschema';

/**
 * The input schema `json-schema-2020-12` expects in `tools/list`, whole: 2020-12 keywords class-validator cannot
 * derive ($schema, an $anchor in $defs, allOf/anyOf, if/then/else, additionalProperties).
 */
const CONTACT_SCHEMA: Record<string, unknown> = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  type: 'object',
  $defs: {
    address: {
      $anchor: 'addressDef',
      type: 'object',
      properties: { street: { type: 'string' }, city: { type: 'string' } },
    },
  },
  properties: {
    name: { type: 'string' },
    address: { $ref: '#/$defs/address' },
    contactMethod: { type: 'string', enum: ['phone', 'email'] },
    phone: { type: 'string' },
    email: { type: 'string' },
  },
  allOf: [{ anyOf: [{ required: ['phone'] }, { required: ['email'] }] }],
  if: { properties: { contactMethod: { const: 'phone' } }, required: ['contactMethod'] },
  // A JSON Schema keyword, never awaited.
  // oxlint-disable-next-line unicorn/no-thenable
  then: { required: ['phone'] },
  else: { required: ['email'] },
  additionalProperties: false,
};

/**
 * A function, not an object: the schema replaces the derived one instead of being merged into it. (Its type is
 * OpenAPI's SchemaObject, which has no 2020-12 keywords.)
 */
@JSONSchema(() => CONTACT_SCHEMA as unknown as Exclude<Parameters<typeof JSONSchema>[0], Function>)
export class ContactDto {
  @IsOptional()
  @IsString()
  name?: string;

  @IsOptional()
  @IsObject()
  address?: { street?: string; city?: string };

  @IsOptional()
  @IsIn(['phone', 'email'])
  contactMethod?: 'phone' | 'email';

  @IsOptional()
  @IsString()
  phone?: string;

  @IsOptional()
  @IsString()
  email?: string;
}
