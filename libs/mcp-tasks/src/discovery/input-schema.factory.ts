import { dtoSchema } from './dto-schema.factory.js';

const EMPTY_OBJECT_SCHEMA = { type: 'object', properties: {} } as const;

/** The JSON Schema `tools/list` shows for a tool, derived from its DTO's class-validator metadata. */
export function inputSchemaFor(dto: (new (...args: any[]) => object) | undefined): Record<string, unknown> {
  if (!dto) return { ...EMPTY_OBJECT_SCHEMA };
  return { type: 'object', properties: {}, ...dtoSchema(dto) };
}
