import { dtoSchema } from '../discovery/dto-schema.factory.js';

/** One entry of a prompt's `arguments` in `prompts/list`. */
export interface PromptArgument {
  name: string;
  description?: string;
  required?: boolean;
}

type PropertySchema = { description?: unknown; title?: unknown };

/**
 * The `arguments` `prompts/list` shows for a prompt's DTO, in its properties' order: each one `required` unless
 * `@IsOptional()`, its `description` from the property's schema (`@JSONSchema({ description })`), else its `title`.
 */
export function promptArgumentsOf(dto: Function | undefined): PromptArgument[] {
  if (!dto) return [];
  const schema = dtoSchema(dto) as { properties?: Record<string, PropertySchema>; required?: string[] };
  const required = new Set(schema.required ?? []);
  return Object.entries(schema.properties ?? {}).map(([name, property]) => {
    const text = typeof property.description === 'string' ? property.description : property.title;
    return { name, ...(typeof text === 'string' ? { description: text } : {}), required: required.has(name) };
  });
}
