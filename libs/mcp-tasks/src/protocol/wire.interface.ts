/**
 * Task statuses of the Tasks extension.
 * @publicApi
 */
export type TaskStatus = 'working' | 'input_required' | 'completed' | 'failed' | 'cancelled';

export const TERMINAL_STATUSES: ReadonlySet<TaskStatus> = new Set(['completed', 'failed', 'cancelled']);

export const isTerminal = (status: TaskStatus): boolean => TERMINAL_STATUSES.has(status);

/**
 * One request a tool makes of the client (`elicitation/create`, `sampling/createMessage`, `roots/list`).
 * @publicApi
 */
export interface InputRequest {
  method: 'elicitation/create' | 'sampling/createMessage' | 'roots/list';
  params?: Record<string, unknown>;
}

/**
 * Open questions by key, as a task holds them in `inputRequests` (answers come back under the same keys).
 * @publicApi
 */
export type InputRequests = Record<string, InputRequest>;

/**
 * A `CallToolResult` as it travels on the 2026-07-28 wire.
 * @publicApi
 */
export interface CallToolResult {
  content: Array<Record<string, unknown>>;
  /** Any JSON value on 2026-07-28 (an object only on 2025-11-25, where the legacy wire wraps others). */
  structuredContent?: unknown;
  isError?: boolean;
  _meta?: Record<string, unknown>;
  [key: string]: unknown;
}

/**
 * The error a `failed` task carries.
 * @publicApi
 */
export interface TaskError {
  code: number;
  message: string;
  data?: unknown;
}

/** The task fields every task-shaped answer shares (`CreateTaskResult`, `tasks/get`, `notifications/tasks`). */
export interface WireTask {
  taskId: string;
  status: TaskStatus;
  statusMessage?: string;
  createdAt: string;
  lastUpdatedAt: string;
  ttlMs: number | null;
  pollIntervalMs?: number;
}

/** `tasks/get` result body (without `resultType`). */
export interface DetailedWireTask extends WireTask {
  inputRequests?: InputRequests;
  result?: CallToolResult & { resultType: 'complete' };
  error?: TaskError;
}
