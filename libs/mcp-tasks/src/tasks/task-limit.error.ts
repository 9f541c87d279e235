import { RpcCode } from '../mcp-tasks.constants.js';
import { RpcError } from '../protocol/rpc.error.js';

/** `-32600` for a call that needs a task when the owner's (`maxPerPrincipal`) or the server's cap is reached. */
export function taskLimitError(refused: 'owner-limit' | 'server-limit'): RpcError {
  const whose = refused === 'owner-limit' ? 'you have' : 'the server has';
  return new RpcError(RpcCode.InvalidRequest, `Too many live tasks: ${whose} reached the limit; wait for one to end`);
}
