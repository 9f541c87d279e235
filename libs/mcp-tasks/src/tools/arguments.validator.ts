import { plainToInstance } from 'class-transformer';
import { validate } from 'class-validator';
import { promised } from '../common/promised.js';
import type { ToolDefinition } from '../discovery/tool-definition.js';
import { depthExceeds, MAX_DEPTH } from '../protocol/json-depth.js';
import { RpcError } from '../protocol/rpc.error.js';
import { ArgumentsInvalidError } from './arguments-invalid.error.js';
import { validationMessages } from './validation-messages.js';

/**
 * Validates `tools/call` arguments against the tool's DTO before anything runs. Returns the DTO instance (or the
 * plain object for tools without a DTO). Arguments that are no object, or absurdly deep, are a malformed request
 * (`RpcError` -32602); an object that fails the DTO throws `ArgumentsInvalidError` (a tool error result on the wire).
 */
export function validateArguments(tool: ToolDefinition, raw: unknown): Promise<object> {
  return promised(() => argumentsOf(tool, raw));
}

/**
 * `validateArguments` for the `tools/call` hot path: a value when there is no DTO to wait for (no promise), and what
 * it refuses thrown, not rejected.
 */
export function argumentsOf(tool: ToolDefinition, raw: unknown): object | Promise<object> {
  const args = raw ?? {};
  if (typeof args !== 'object' || Array.isArray(args)) {
    throw RpcError.invalidParams(`Invalid arguments for tool ${tool.name}: arguments must be an object`);
  }
  // Recursive transformers and digests would overflow the stack on absurd nesting: refuse it first.
  if (depthExceeds(args, MAX_DEPTH)) {
    throw RpcError.invalidParams(`Invalid arguments for tool ${tool.name}: nested deeper than ${MAX_DEPTH} levels`);
  }
  const dto = tool.options.input;
  if (!dto) return args;
  const instance = plainToInstance(dto, args);
  // A value without a DTO; with one, class-validator's promise and one `then` (no `async` function: the hot path).
  return validate(instance, {
    forbidUnknownValues: false,
    validationError: { target: false, value: false },
  }).then((errors) => {
    if (errors.length > 0) throw new ArgumentsInvalidError(tool.name, validationMessages(errors));
    return instance;
  });
}
