import { createRequire } from 'node:module';
import type { MetadataStorage } from 'class-transformer/types/MetadataStorage.js';
import { targetConstructorToSchema, validationMetadatasToSchemas } from 'class-validator-jsonschema';

type Schema = Record<string, unknown>;

const REFS = '#/$defs/';

/**
 * class-transformer's `@Type()` records: they say which DTO a nested property (or an array's items) holds, where
 * `design:type` only says `Array` or `Object`. The package exports them under no public name.
 */
const transformerStorage = (): MetadataStorage | undefined => {
  try {
    const loaded = createRequire(import.meta.url)('class-transformer/cjs/storage') as {
      defaultMetadataStorage?: unknown;
    };
    return loaded.defaultMetadataStorage as MetadataStorage | undefined;
  } catch {
    return undefined;
  }
};

const options = () => ({ refPointerPrefix: REFS, classTransformerMetadataStorage: transformerStorage() });

/**
 * The JSON Schema of a class-validator DTO, with the DTOs it nests (`@ValidateNested()` + `@Type()`) under `$defs`,
 * so every `$ref` resolves inside it (clients compile the schemas they are given). `$defs` the DTO's own
 * `@JSONSchema` declares are kept: a `$ref` to one of them is not a nested DTO.
 */
export function dtoSchema(dto: Function): Schema {
  const schema = targetConstructorToSchema(dto, options()) as Schema;
  const own = (schema.$defs ?? {}) as Record<string, Schema>;
  const pending = [...refsIn(schema)].filter((name) => !own[name]);
  if (pending.length === 0) return schema;
  const all = validationMetadatasToSchemas(options()) as Record<string, Schema>;
  const defs: Record<string, Schema> = {};
  for (let name = pending.pop(); name !== undefined; name = pending.pop()) {
    if (defs[name] || own[name] || !all[name]) continue;
    defs[name] = all[name];
    pending.push(...refsIn(all[name]));
  }
  return { ...schema, $defs: { ...own, ...defs } };
}

/** The DTO names a schema refers to. */
function refsIn(schema: unknown, found = new Set<string>()): Set<string> {
  if (!schema || typeof schema !== 'object') return found;
  for (const [key, value] of Object.entries(schema)) {
    if (key === '$ref' && typeof value === 'string' && value.startsWith(REFS)) found.add(value.slice(REFS.length));
    else refsIn(value, found);
  }
  return found;
}
