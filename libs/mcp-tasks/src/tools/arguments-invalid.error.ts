import { RpcCode } from '../mcp-tasks.constants.js';
import { RpcError } from '../protocol/rpc.error.js';
import type { CallToolResult } from '../protocol/wire.interface.js';

/**
 * Arguments that fail the tool's `input` DTO. A `tools/call` answers it as a tool execution error (`isError: true`,
 * one line per failing property) that the model can read and retry with (2025-11-25 SEP-1303, 2026-07-28 Tools →
 * Error Handling); no task is made for it. Elsewhere it is the `-32602` it extends: a resumed task whose stored
 * arguments a deploy's DTO no longer accepts ends `failed` with it.
 */
export class ArgumentsInvalidError extends RpcError {
  constructor(
    readonly tool: string,
    /** `<path>: <rule>`, one per failing property. */
    readonly problems: string[],
  ) {
    super(RpcCode.InvalidParams, `Invalid arguments for tool ${tool}: ${problems.join('; ')}`, { errors: problems });
  }

  /** The error result: text only (a `structuredContent` would have to match the tool's `output`). */
  toResult(): CallToolResult {
    const text = [`Invalid arguments for tool ${this.tool}:`, ...this.problems].join('\n');
    return { content: [{ type: 'text', text }], isError: true };
  }
}
