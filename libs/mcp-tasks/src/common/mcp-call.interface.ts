import type { Principal } from './principal.interface.js';
import type { ToolContext } from './tool-context.interface.js';

/**
 * What an `mcp` `ExecutionContext` carries after the HTTP request and response (its third argument): the MCP
 * request, and for a tool call the tool, its arguments and its `ToolContext`. Read it with `McpExecutionContext`.
 * @publicApi
 */
export interface McpCall {
  /** The JSON-RPC method (`tools/call`, `tasks/get`, `tools/list`, …); `''` for a request that names none (GET). */
  method: string;
  /** The JSON-RPC id, when the request has one. */
  id?: string | number;
  /** The request's params, as sent. */
  params?: Record<string, unknown>;
  /** Who is calling (after the library's own authentication). */
  principal: Principal;
  /** A tool call's tool name. */
  tool?: string;
  /** A tool call's arguments: as sent in its guards; the validated DTO instance in interceptors, pipes, the method. */
  args?: object;
  /** A tool call's `ToolContext`. */
  context?: ToolContext;
}
