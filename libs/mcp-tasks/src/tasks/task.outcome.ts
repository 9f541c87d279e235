import { HttpException } from '@nestjs/common';
import { internalError } from '../protocol/internal.error.js';
import { fromHttpException } from '../protocol/http-exception.mapper.js';
import { RpcError } from '../protocol/rpc.error.js';
import type { CallToolResult } from '../protocol/wire.interface.js';
import type { RunChange } from '../context/task-tool.context.js';
import { ToolError } from '../tools/tool.error.js';
import { toolErrorResult } from '../tools/tool-result.normalizer.js';

/** A task whose tool's run returned `result` (the tool pipeline made it a `CallToolResult`) ends `completed`. */
export const completion = (result: unknown): RunChange => ({
  kind: 'finish',
  status: 'completed',
  result: result as CallToolResult,
});

/**
 * How what a task's tool threw ends the task: a `ToolError` is a `completed` error result, an `RpcError` or a
 * client-side `HttpException` a `failed` task with that error; anything else is logged and fails it as
 * `-32603 Internal error`.
 */
export function failureOf(taskId: string, err: unknown): RunChange {
  if (err instanceof ToolError) return { kind: 'finish', status: 'completed', result: toolErrorResult(err) };
  if (err instanceof RpcError) return { kind: 'finish', status: 'failed', error: err.toJSON() };
  if (err instanceof HttpException && err.getStatus() < 500)
    return { kind: 'finish', status: 'failed', error: fromHttpException(err).toJSON() };
  return { kind: 'finish', status: 'failed', error: internalError(`task ${taskId} failed`, err).toJSON() };
}
