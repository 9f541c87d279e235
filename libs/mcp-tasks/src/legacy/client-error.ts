import { RpcCode } from '../mcp-tasks.constants.js';

/** The `error` a client answered one of our requests with, reduced to a code and a short message. */
export function clientErrorOf(error: unknown): { code: number; message: string } {
  const e = (error ?? {}) as { code?: unknown; message?: unknown };
  return {
    code: typeof e.code === 'number' ? e.code : RpcCode.InternalError,
    message: typeof e.message === 'string' ? e.message.slice(0, 500) : 'no message',
  };
}
