import type { Principal } from './principal.interface.js';
import type { ToolContext } from './tool-context.interface.js';

/**
 * What an `mcp` `ExecutionContext` carries after the HTTP request and response (its third argument): the MCP
 * request, and for a call of a decorated method (a tool call, a resource read, a prompt get) what it names, its
 * arguments and its `ToolContext`. Read it with `McpExecutionContext`.
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
  /**
   * A `resources/read`'s resource: the URI read, and the `name` of the `@McpResource` or `@McpResourceTemplate`
   * that serves it.
   */
  resource?: { uri: string; name: string };
  /** A `prompts/get`'s prompt name. */
  prompt?: string;
  /**
   * The call's arguments: a tool's arguments, a resource template's URI variables (strings), a prompt's arguments.
   * As sent in its guards; the validated DTO instance (when it has one) in interceptors, pipes, the method.
   */
  args?: object;
  /**
   * The call's `ToolContext` (a resource read or a prompt get has one too: it may ask for input and report
   * progress; `tool` there is the resource's or prompt's name).
   */
  context?: ToolContext;
}
