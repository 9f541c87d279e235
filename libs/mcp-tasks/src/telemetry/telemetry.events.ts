/** Names of the events the library emits on `@nestjs/event-emitter` around each tool run. */
export const McpTaskEvents = {
  /** A tool run starts (in the request, or as a task). Payload: `McpTaskStartEvent`. */
  start: 'mcp.task.start',
  /** A tool run ended, however it ended. Payload: `McpTaskStopEvent`. */
  stop: 'mcp.task.stop',
  /** A tool run threw (before `stop`). Payload: `McpTaskExceptionEvent`. */
  exception: 'mcp.task.exception',
} as const;

export interface McpTaskStartEvent {
  /** The task's id; absent for a synchronous run. */
  taskId?: string;
  tool: string;
  /** `server.name` of the module that ran it. */
  server: string;
  /** JSON-RPC id of the `tools/call` that started the run. */
  requestId: string | number;
}

/** How a run ended: a task's final status, or `input_required` for a synchronous MRTR round. */
export type McpRunOutcome = 'completed' | 'failed' | 'cancelled' | 'input_required';

export interface McpTaskStopEvent extends McpTaskStartEvent {
  status: McpRunOutcome;
  /** `true` when the tool reported an error result (`isError`, `ToolError`): status is still `completed`. */
  isError: boolean;
  durationMs: number;
}

export interface McpTaskExceptionEvent extends McpTaskStartEvent {
  /** What the tool threw (server-side only; never sent to clients). */
  error: unknown;
  durationMs: number;
}
