import { createRequire } from 'node:module';

/** This package's version (the CLI's `--version` and its `clientInfo`). */
export const CLI_VERSION = (createRequire(import.meta.url)('../../package.json') as { version: string }).version;

/** The CLI's name in `clientInfo`, and the model its `--sampling-text` answers name unless `--sampling-model`. */
export const CLI_NAME = 'mcp-tasks-cli';

/**
 * `_meta` key under which an McpTasksModule server lists a tool's task policy at 2026-07-28 (its own, not the spec's).
 */
export const TASK_SUPPORT_META = 'mcp-tasks/taskSupport';

/** How long a cancel waits for its task to stop (`cancel --wait`, Ctrl-C in `call`) before saying it is stopping. */
export const CANCEL_WAIT_MS = 10_000;

/** How the CLI exits; scripts can tell these apart. */
export const ExitCode = {
  /** The tool ran and its result is not an error. */
  ok: 0,
  /** A tool error (`isError`), a `failed` task, a JSON-RPC or connection error. */
  failed: 1,
  /** Bad command line (unknown command or option, bad `--args` / `--arg`). */
  usage: 2,
  /** The task ended `cancelled` (someone cancelled it). */
  cancelled: 3,
  /** HTTP 401: no token, or one the server refused (expired, not for this resource, …): get a new one. */
  unauthorized: 77,
  /** HTTP 403: the token lacks what the request needs (e.g. scopes): ask for a token that has them. */
  forbidden: 78,
  /** Ctrl-C: `call` cancelled its task, `watch` stopped watching. */
  interrupted: 130,
} as const;
