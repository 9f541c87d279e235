import type { ToolDefinition } from '../discovery/tool-definition.js';
import { ArgumentsInvalidError } from '../tools/arguments-invalid.error.js';
import { validateArguments } from '../tools/arguments.validator.js';

/**
 * A call's arguments as the tool's DTO made them or, when they fail it, the call's answer: a tool error result the
 * model can read and retry with, sent before any task exists (both eras). Arguments that are no object stay -32602.
 */
export async function checkedArguments(
  tool: ToolDefinition,
  raw: unknown,
): Promise<{ args: object } | { answer: Record<string, unknown> }> {
  try {
    return { args: await validateArguments(tool, raw) };
  } catch (err) {
    if (err instanceof ArgumentsInvalidError) return { answer: { resultType: 'complete', ...err.toResult() } };
    throw err;
  }
}
