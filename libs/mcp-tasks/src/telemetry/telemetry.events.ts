/**
 * Names of the events the library emits on `@nestjs/event-emitter` around each tool run.
 * @publicApi
 */
export const McpTaskEvents = {
  /** A tool run starts (in the request, or as a task). Payload: `McpTaskStartEvent`. */
  start: 'mcp.task.start',
  /**
   * A tool run ended, however it ended; for a task, once, by the attempt that ended it (an attempt whose task
   * another instance took over, or that shutdown handed over, emits none). Payload: `McpTaskStopEvent`.
   */
  stop: 'mcp.task.stop',
  /** A tool run threw (before `stop`). Payload: `McpTaskExceptionEvent`. */
  exception: 'mcp.task.exception',
} as const;

/**
 * Payload of `McpTaskEvents.start`: which run of which tool, on which server.
 * @publicApi
 */
export interface McpTaskStartEvent {
  /** The task's id; absent for a synchronous run. */
  taskId?: string;
  tool: string;
  /** `server.name` of the module that ran it. */
  server: string;
  /** JSON-RPC id of the `tools/call` that started the run. */
  requestId: string | number;
  /**
   * A task run's attempt: 1 for the first; each takeover of a resumable task (`@McpTool({ resume: true })`) runs the
   * next. Absent for a synchronous run. Every attempt starts (`mcp.task.start`); only the one that ends the task
   * stops (`mcp.task.stop`, once per task).
   */
  attempt?: number;
}

/**
 * How a run ended. For a task, the status the store holds once the run's outcome was written — which may not be
 * what the tool did (it may return after a cancel, or be ended by shutdown or by another instance) — or `expired`
 * when its ttl ran out first and the store no longer serves it. For a synchronous run, how the method ended, or
 * `input_required` for an MRTR round.
 * @publicApi
 */
export type McpRunOutcome = 'completed' | 'failed' | 'cancelled' | 'expired' | 'input_required';

/**
 * Payload of `McpTaskEvents.stop`: how the run ended and how long it took.
 * @publicApi
 */
export interface McpTaskStopEvent extends McpTaskStartEvent {
  status: McpRunOutcome;
  /** `true` when the tool reported an error result (`isError`, `ToolError`): status is still `completed`. */
  isError: boolean;
  durationMs: number;
}

/**
 * Payload of `McpTaskEvents.exception`: what the tool threw.
 * @publicApi
 */
export interface McpTaskExceptionEvent extends McpTaskStartEvent {
  /** What the tool threw (server-side only; never sent to clients). */
  error: unknown;
  durationMs: number;
}
