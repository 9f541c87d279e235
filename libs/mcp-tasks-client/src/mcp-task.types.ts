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

/**
 * Called with each distinct state of a task: once per change of its `status`, its `statusMessage` or its set of
 * outstanding input keys (`inputRequests`), in order, whether a poll or a `notifications/tasks` brought it. The
 * wait awaits it before going on to the next state; an exception it throws rejects the wait (the task keeps running).
 */
export type TaskUpdateListener = (task: McpTask) => void | Promise<void>;

/** Options of `awaitTask` (defaults in brackets). */
export interface AwaitTaskOptions {
  /**
   * [`false`] Open `subscriptions/listen` for the task and react to `notifications/tasks`; polling
   * then only runs as a fallback, every `fallbackPollFactor` × the server's `pollIntervalMs`.
   * Needs a client connected with `tasks: true`.
   */
  listen?: boolean;
  /**
   * [`10`] With `listen`, how much rarer than the server's suggestion the fallback polls are: a number from 1 to
   * 1000 (others reject with a `TypeError` before anything is sent).
   */
  fallbackPollFactor?: number;
  /** [none] Stops waiting (rejects with the signal's reason); the task itself keeps running. */
  signal?: AbortSignal;
  /** [none] Sees each distinct state of the task, the first one read included. See `TaskUpdateListener`. */
  onUpdate?: TaskUpdateListener;
  /**
   * [`true`] Answer the task's questions with the handlers. `false` only observes: an `input_required` task
   * is shown to `onUpdate` and left for another client to answer, and the wait goes on until the task ends.
   */
  answer?: boolean;
}

/** Options of `runTool` (defaults in brackets): those of `awaitTask` for a tool that runs as a task. */
export interface RunToolOptions extends Omit<AwaitTaskOptions, 'answer'> {
  /**
   * [none] Stops the call. A synchronous call is aborted; a task stops being followed and is cancelled
   * (`tasks/cancel`), since the caller holds no handle to it. Rejects with the signal's reason.
   */
  signal?: AbortSignal;
}
