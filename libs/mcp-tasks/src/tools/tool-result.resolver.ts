import { Logger } from '@nestjs/common';
import { inspect } from 'node:util';
import type { ToolDefinition } from '../discovery/tool-definition.js';
import { RpcCode } from '../mcp-tasks.constants.js';
import type { CallToolResult } from '../protocol/wire.interface.js';
import { RpcError } from '../protocol/rpc.error.js';
import { InvalidToolResult } from './invalid-tool-result.error.js';
import { callToolResultOf } from './tool-result.normalizer.js';

const logger = new Logger('McpTasks');

/** How much of a returned value the log shows. */
const PREVIEW = 300;

/**
 * The result of a tool's run. A value that cannot be one is a server error, never sent: logged (ERROR) with the
 * tool's name, why, and what it returned (cut short); the call gets `-32603 Internal error` (a task ends `failed`).
 */
export function resultOf(tool: ToolDefinition, value: unknown): CallToolResult | Promise<CallToolResult> {
  try {
    const result = callToolResultOf(value, tool.result);
    // A value when nothing had to be awaited: no promise on the hot path.
    return result instanceof Promise ? result.catch((err: unknown) => invalid(tool, value, err)) : result;
  } catch (err) {
    return invalid(tool, value, err);
  }
}

/** Logs why `value` is no result of `tool`, and throws what the call gets. */
function invalid(tool: ToolDefinition, value: unknown, err: unknown): never {
  const where = `${tool.instance.constructor.name}.${tool.methodName}`;
  // Once serialized, what would have been sent is shown (an entity's @Exclude()d password stays out of the log).
  const shown = err instanceof InvalidToolResult && err.serialized !== undefined ? err.serialized : value;
  logger.error(
    `tool ${tool.name} (${where}) returned what cannot be its result: ${(err as Error).message}; ` +
      `it returned ${preview(shown)}`,
  );
  throw new RpcError(RpcCode.InternalError, 'Internal error');
}

function preview(value: unknown): string {
  const shown = inspect(value, { depth: 3, breakLength: Infinity, maxArrayLength: 10, maxStringLength: 100 });
  return shown.length > PREVIEW ? `${shown.slice(0, PREVIEW)}…` : shown;
}
