import type { Implementation } from '@modelcontextprotocol/client';
import type { McpInputHandlers } from './input-handlers.interface.js';
import type { TokenProvider } from './token-provider.interface.js';

/**
 * How `connect` treats servers that speak only a 2025 revision (the `initialize` handshake):
 * - `'never'`: connect at 2026-07-28 only; such a server fails `connect`.
 * - `'fallback'`: ask with `server/discover` first and take 2026-07-28 when offered, otherwise connect
 *   with `initialize` at the server's 2025 revision (synchronous tool calls only).
 * - `'only'`: always `initialize`, even with a server that speaks 2026-07-28.
 * @publicApi
 */
export type LegacyMode = 'never' | 'fallback' | 'only';

/**
 * Options of `connect()` (defaults in brackets).
 * @publicApi
 */
export interface ConnectOptions {
  /**
   * [`false`] Declare the Tasks extension (`io.modelcontextprotocol/tasks`). With it, tools whose
   * policy allows answer `{ kind: 'task' }` and `awaitTask` / `listen` work; without it, `optional`
   * tools run synchronously and `required` ones are refused by the server (`-32021`).
   */
  tasks?: boolean;
  /** [none] Answers to tool questions; each one present declares its capability. See `McpInputHandlers`. */
  handlers?: McpInputHandlers;
  /**
   * [none] Bearer token sent as `Authorization: Bearer <token>` on every request, listen streams and task polls
   * included: a string, or a provider (`({ rejected }) => token`, sync or async) asked before each request and
   * again after a 401, when the request is sent once more if it gave another token. A 401/403 that stands rejects
   * with `UnauthorizedError` / `ForbiddenError`.
   */
  token?: string | TokenProvider;
  /** [`{ name: 'mcp-tasks-client', version: '0.1.0' }`] Sent to the server in every request's `_meta`. */
  clientInfo?: Implementation;
  /**
   * [`'never'`] Whether to talk to servers that speak only a 2025 revision. On such a connection
   * (`client.legacy`) tool calls are synchronous — `tasks` is ignored, the handlers answer the server's
   * `elicitation/create` / `sampling/createMessage` / `roots/list` requests — and the task methods reject
   * with `TasksUnavailableError`. See `LegacyMode`.
   */
  legacy?: LegacyMode;
  /**
   * [none] Called when the server says its tool list changed (`notifications/tools/list_changed`, or a listen
   * stream the SDK opens for it), where the server advertises `tools.listChanged`. Read the list again then.
   */
  onToolsChanged?: () => void;
}
