import type { CanActivate, Type } from '@nestjs/common';
import type { IncomingMessage } from 'node:http';

/**
 * Options of `McpTasksConsoleModule.forRoot()` / `forRootAsync()`. An access rule is required:
 * `guard`, `scope`, or both; with neither, startup fails.
 * @publicApi
 */
export interface McpTasksConsoleOptions {
  /** HTTP path of the page; its data lives under `<path>/api`. Default `/mcp-console`. */
  path?: string;
  /**
   * `server.name` of the `McpTasksModule` registration whose tasks the console shows (its store, its
   * task runner for cancels, its caps). Default: the only registration; required when there are several.
   */
  server?: string;
  /**
   * A Nest guard (class or instance) every data request must pass: the app's own access rule, e.g. a
   * session or SSO check. Its `req.user` names who acted in the console's log. A class is built with
   * the console module's injector (add what it needs through `imports`). Default: none.
   */
  guard?: Type<CanActivate> | CanActivate;
  /**
   * OAuth scope(s) a bearer token must carry to use the console, checked with the `auth` of the
   * `McpTasksModule` registration (same issuer, keys and audience as MCP requests), e.g. `'mcp:admin'`.
   * Missing or invalid token → 401, token without the scope(s) → 403. The token's `sub` names who
   * acted. Needs that registration to have `auth`. Default: none.
   */
  scope?: string | string[];
  /**
   * Show task results and errors on the task page. Results can hold private data, so by default the
   * page shows only that a result or error exists. Default `false`.
   */
  showResults?: boolean;
  /** How often the page re-reads its data, in ms: from 100 to 2^31-1. Default 2 000. */
  pollInterval?: number;
  /**
   * Who a request is, for the console's log. Default: the bearer token's `sub` (with `scope`), else the
   * guard's `req.user` (`sub`, `id`, `username`, `name` or `email`, or the value itself when a string).
   */
  actor?: (req: IncomingMessage & { user?: unknown }) => string | undefined;
}
