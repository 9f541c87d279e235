import type { ServerResponse } from 'node:http';
import type { McpRequest } from './mcp-request.interface.js';

/** Answers one method of the 2026-07-28 table (`methods.table.ts`) with its result. */
export interface McpAnswerHandler {
  /** The result (the endpoint adds `_meta`); a failure throws (any error: see `toRpcError`). */
  handle(req: McpRequest): Promise<Record<string, unknown>>;
}

/** Answers one method of the table on the response itself, as a stream that outlives the call (SSE). */
export interface McpStreamHandler {
  /** Throws, before anything is written, what refuses the request. */
  stream(req: McpRequest, res: ServerResponse): Promise<void>;
}
