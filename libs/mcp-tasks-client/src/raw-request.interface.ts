import type { McpTask } from './mcp-task.interface.js';

/**
 * Options of `McpTasksClient.request` (defaults in brackets).
 * @publicApi
 */
export interface RawRequestOptions {
  /**
   * [the connection's `token`] Bearer token for this request only (e.g. one exchanged for the end user), sent as
   * it is: no provider is asked and a 401 is not retried.
   */
  token?: string;
  /**
   * [the connection's] Client capabilities this request declares in its `_meta` (capabilities travel with each
   * request on the 2026-07-28 wire), e.g. those of the caller a gateway forwards the request for.
   */
  capabilities?: Record<string, unknown>;
  /** [none] More `_meta` entries, e.g. `{ traceparent, tracestate }` to continue the caller's trace. */
  meta?: Record<string, unknown>;
  /** [none] Aborts the request. */
  signal?: AbortSignal;
  /**
   * [the tool's, from the connection's `tools/list`] For `tools/call`: the called tool's `inputSchema`, whose
   * `x-mcp-header` arguments are sent as `Mcp-Param-*` headers (SEP-2243). Code that has the schema already (a
   * gateway that listed the tools) passes it, and the list is not read again for each call.
   */
  inputSchema?: Record<string, unknown>;
}

/**
 * Options of `McpTasksClient.listenTasks` (defaults in brackets).
 * @publicApi
 */
export interface ListenTasksOptions {
  /** [the connection's `token`] Bearer token for this stream, sent as it is (as `RawRequestOptions.token`). */
  token?: string;
  /** [none] Closes the stream (as `close()` does). */
  signal?: AbortSignal;
}

/**
 * Called with each task a `notifications/tasks` carries (without the message's `_meta`).
 * @publicApi
 */
export type TaskNotificationListener = (task: McpTask) => void;

/**
 * An open `subscriptions/listen` stream for some tasks.
 * @publicApi
 */
export interface TaskListenStream {
  /** The task ids the server agreed to notify (others were unknown to it, or not the caller's). */
  readonly acknowledged: string[];
  /** Resolves once the stream has ended: closed here, ended by the server, or broken. Never rejects. */
  readonly closed: Promise<void>;
  /** Ends the stream. Idempotent. */
  close(): void;
}
