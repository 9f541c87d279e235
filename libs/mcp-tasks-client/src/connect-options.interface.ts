import type { Implementation } from '@modelcontextprotocol/client';
import type { McpInputHandlers } from './input-handlers.interface.js';

/** Options of `connect()` (defaults in brackets). */
export interface ConnectOptions {
  /**
   * [`false`] Declare the Tasks extension (`io.modelcontextprotocol/tasks`). With it, tools whose
   * policy allows answer `{ kind: 'task' }` and `awaitTask` / `listen` work; without it, `optional`
   * tools run synchronously and `required` ones are refused by the server (`-32021`).
   */
  tasks?: boolean;
  /** [none] Answers to tool questions; each one present declares its capability. See `McpInputHandlers`. */
  handlers?: McpInputHandlers;
  /** [none] Bearer token sent as `Authorization: Bearer <token>` on every request, listen streams included. */
  token?: string;
  /** [`{ name: 'mcp-tasks-client', version: '0.1.0' }`] Sent to the server in every request's `_meta`. */
  clientInfo?: Implementation;
}
