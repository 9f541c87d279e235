import { RpcCode } from '../mcp-tasks.constants.js';
import type { CallToolResult, TaskError } from '../protocol/wire.interface.js';
import type { UpstreamTask } from './upstream-client.api.js';

// How an upstream task that ended is written into the local task that mirrors it.

/** The upstream's result without what describes the message (`resultType`, `_meta`). */
export function resultOf(up: UpstreamTask): CallToolResult {
  const { resultType: _, _meta: __, ...result } = (up.result ?? { content: [] }) as Record<string, unknown>;
  return { content: [], ...result } as CallToolResult;
}

/** The upstream's error, or a plain internal error when it sent none a client could use. */
export function errorOf(up: UpstreamTask): TaskError {
  if (up.error && typeof up.error.code === 'number' && typeof up.error.message === 'string') return up.error;
  return { code: RpcCode.InternalError, message: 'The upstream task failed' };
}
