import { targetConstructorToSchema } from 'class-validator-jsonschema';

const EMPTY_OBJECT_SCHEMA = { type: 'object', properties: {} } as const;

/** The JSON Schema `tools/list` shows for a tool, derived from its DTO's class-validator metadata. */
export function inputSchemaFor(dto: (new (...args: any[]) => object) | undefined): Record<string, unknown> {
  if (!dto) return { ...EMPTY_OBJECT_SCHEMA };
  const schema = targetConstructorToSchema(dto) as Record<string, unknown>;
  return { type: 'object', properties: {}, ...schema };
}
