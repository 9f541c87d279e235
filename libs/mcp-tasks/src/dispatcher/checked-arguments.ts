import type { ToolDefinition } from '../discovery/tool-definition.js';
import { ArgumentsInvalidError } from '../tools/arguments-invalid.error.js';
import { argumentsOf } from '../tools/arguments.validator.js';

/**
 * A call's arguments as the tool's DTO made them or, when they fail it, the call's answer: a tool error result the
 * model can read and retry with, sent before any task exists (both eras). Arguments that are no object stay -32602.
 */
export function checkedArguments(tool: ToolDefinition, raw: unknown): Checked | Promise<Checked> {
  // A value for a tool without a DTO (nothing to wait for); one `then` for one with a DTO, not an `async` function.
  const args = argumentsOf(tool, raw);
  return args instanceof Promise ? args.then(valid, invalid) : { args };
}

type Checked = { args: object } | { answer: Record<string, unknown> };

const valid = (args: object): Checked => ({ args });

function invalid(err: unknown): Checked {
  if (err instanceof ArgumentsInvalidError) return { answer: { resultType: 'complete', ...err.toResult() } };
  throw err;
}
