import type { CallToolResult } from '@modelcontextprotocol/client';

export type McpTaskStatus = 'working' | 'input_required' | 'completed' | 'failed' | 'cancelled';

/** One question of an `input_required` task, as the server sent it. */
export interface McpInputRequest {
  method: 'elicitation/create' | 'sampling/createMessage' | 'roots/list';
  params?: Record<string, unknown>;
}

/** A task as the server reports it (`CreateTaskResult`, `tasks/get`, `notifications/tasks`), without `_meta`. */
export interface McpTask {
  taskId: string;
  status: McpTaskStatus;
  /** The tool's latest progress text, when it reported one. */
  statusMessage?: string;
  /** ISO 8601 times. */
  createdAt: string;
  lastUpdatedAt: string;
  /** How long the task stays readable after creation; `null` = no expiry. */
  ttlMs: number | null;
  /** The server's suggested polling interval; present while the task is live. */
  pollIntervalMs?: number;
  /** The outstanding questions, by key, while `input_required`. */
  inputRequests?: Record<string, McpInputRequest>;
  /** The tool's result when `completed` (a tool error is `completed` with `result.isError`). */
  result?: CallToolResult;
  /** The JSON-RPC error when `failed`. */
  error?: { code: number; message: string; data?: unknown };
}

/** What `callTool` answers: the result of a synchronous run, or the task that was started. */
export type ToolCallOutcome = { kind: 'result'; result: CallToolResult } | { kind: 'task'; task: McpTask };

/** Options of `awaitTask` (defaults in brackets). */
export interface AwaitTaskOptions {
  /**
   * [`false`] Open `subscriptions/listen` for the task and react to `notifications/tasks`; polling
   * then only runs as a fallback, every `fallbackPollFactor` × the server's `pollIntervalMs`.
   * Needs a client connected with `tasks: true`.
   */
  listen?: boolean;
  /** [`10`] With `listen`, how much rarer than the server's suggestion the fallback polls are. */
  fallbackPollFactor?: number;
  /** [none] Stops waiting (rejects with the signal's reason); the task itself keeps running. */
  signal?: AbortSignal;
}
