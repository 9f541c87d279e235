import type { Principal } from '../common/principal.interface.js';

/**
 * One tool of an upstream server as its `tools/list` describes it (its own name, before the gateway prefixes it).
 * @publicApi
 */
export interface McpUpstreamTool {
  name: string;
  title?: string;
  description?: string;
  inputSchema: Record<string, unknown>;
  outputSchema?: Record<string, unknown>;
  annotations?: Record<string, unknown>;
}

/**
 * How the gateway authenticates to an upstream: not at all, with one static bearer token, or with a token for
 * each caller (e.g. an OAuth 2.0 token exchange, RFC 8693, made from the caller's principal).
 * @publicApi
 */
export type McpUpstreamAuth =
  | { type: 'none' }
  | { type: 'bearer'; token: string }
  | {
      type: 'exchange';
      /**
       * A token for the upstream on behalf of `principal` (the caller: subject, scopes, token claims). Called for
       * every request made for a caller — calls, answers, cancels, and the polls of a mirrored task, on whichever
       * instance mirrors it — so cache inside it when an exchange is costly.
       */
      token: (principal: Principal) => string | Promise<string>;
      /**
       * The gateway's own token, for what it asks for no caller: connecting and listing tools.
       * @default none
       */
      serviceToken?: string;
    };

/**
 * One upstream MCP server whose tools this server serves as its own (the `upstreams` option).
 * @publicApi
 */
export interface McpUpstreamOptions {
  /**
   * Names the upstream and prefixes its tools: `files` serves the upstream's `read` as `files_read`. Letters,
   * digits and `-` (no `_`, so a prefixed name splits one way only); unique among the upstreams. Required.
   */
  name: string;
  /** The upstream's Streamable HTTP endpoint, e.g. `https://files.internal/mcp`. Required. */
  url: string;
  /**
   * Which of its tools to serve: all of them, those named (the upstream's own names), or those a filter keeps.
   * @default 'all'
   */
  tools?: 'all' | string[] | ((tool: McpUpstreamTool) => boolean);
  /**
   * Scopes a caller's token needs for these tools, as `@RequiredScopes` on a tool method: checked by the scopes
   * guard before anything is sent upstream (403 `insufficient_scope` otherwise), recorded on the tasks they start,
   * and `tools/list` shows the tools only to callers who have them. Without `auth` nothing is checked.
   * @default none
   */
  scopes?: string[];
  /**
   * How to authenticate to the upstream.
   * @default { type: 'none' }
   */
  auth?: McpUpstreamAuth;
  /**
   * How long the upstream's tool list is kept before it is read again, in ms (sooner when the upstream notifies
   * `notifications/tools/list_changed`). From 100 to 2^31-1.
   * @default 60_000
   */
  toolsTtl?: number;
  /**
   * How long one request to the upstream may take, in ms: a synchronous tool call included, so raise it for
   * upstream tools that run long in the request. Past it the call gets `-32603` (retryable). At most 2^31-1.
   * @default 60_000
   */
  timeout?: number;
}
