import { Logger } from '@nestjs/common';
import { RpcCode } from '../mcp-tasks.constants.js';
import { RpcError } from '../protocol/rpc.error.js';
import { stopNote } from './stop.note.js';
import type { SyncToolContext } from './sync-tool.context.js';

const logger = new Logger('McpTasks');

/**
 * How a call answered in the request ends once its signal fired (the client left, or cancelled it), whatever the
 * tool threw: one debug line, not an error; the answer, if anyone still reads it, says it was stopped.
 */
export function stoppedCall(ctx: SyncToolContext, err: unknown): RpcError {
  const reason: unknown = ctx.signal.reason;
  const why = reason instanceof Error ? reason.message : String(reason);
  logger.debug(stopNote(`tools/call ${ctx.tool} (request ${String(ctx.requestId)})`, why, err));
  return new RpcError(RpcCode.InternalError, `The call was stopped: ${why}`);
}
