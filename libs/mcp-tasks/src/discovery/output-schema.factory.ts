import type { ToolOutput } from '../decorators/mcp-tool.decorator.js';
import { dtoSchema } from './dto-schema.factory.js';

/**
 * The `outputSchema` `tools/list` shows for a tool declaring `output`: its DTO's schema, or for `[Dto]` an array of
 * them (the `$defs` of nested DTOs at the root either way).
 */
export function outputSchemaFor(output: ToolOutput | undefined): Record<string, unknown> | undefined {
  if (!output) return undefined;
  if (!Array.isArray(output)) return { type: 'object', properties: {}, ...dtoSchema(output) };
  const { $defs, ...item } = dtoSchema(output[0]);
  return { type: 'array', items: { type: 'object', properties: {}, ...item }, ...($defs ? { $defs } : {}) };
}
