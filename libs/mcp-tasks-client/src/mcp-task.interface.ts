import type { CallToolResult } from '@modelcontextprotocol/client';
import type { ErrorV2, InputRequestV2, TaskStatusV2, TaskV2 } from '@modelcontextprotocol/ext-tasks/core/v2';

/**
 * A task's status, as the Tasks extension defines it (ext-tasks' `TaskStatusV2`).
 * @publicApi
 */
export type McpTaskStatus = TaskStatusV2;

/**
 * One question of an `input_required` task, as the server sent it (ext-tasks' `InputRequestV2`):
 * `elicitation/create`, `sampling/createMessage` or `roots/list`, with its params.
 * @publicApi
 */
export type McpInputRequest = InputRequestV2;

/**
 * A task as the server reports it (`CreateTaskResult`, `tasks/get`, `notifications/tasks`), without `_meta`: the
 * Tasks extension's task (ext-tasks' `TaskV2`: `taskId`, `status`, `statusMessage` — the tool's latest progress
 * text —, `createdAt` and `lastUpdatedAt` as ISO 8601 times, `ttlMs` — how long it stays readable after creation,
 * `null` for no expiry —, `pollIntervalMs` — the server's suggested polling interval, while it is live), with the
 * fields of its state.
 *
 * Not ext-tasks' `DetailedTaskV2` on purpose: that one is a union by `status`, where `result` or `error` can only be
 * read after narrowing, and types `result` as any JSON object; here the state's fields are optional on one shape,
 * and `result` is the SDK's `CallToolResult`, as a synchronous call returns it.
 * @publicApi
 */
export interface McpTask extends TaskV2 {
  /** The outstanding questions, by key, while `input_required`. */
  inputRequests?: Record<string, McpInputRequest>;
  /** The tool's result when `completed` (a tool error is `completed` with `result.isError`). */
  result?: CallToolResult;
  /** The JSON-RPC error when `failed`. */
  error?: ErrorV2;
}

/**
 * What `callTool` answers: the result of a synchronous run, or the task that was started.
 * @publicApi
 */
export type ToolCallOutcome = { kind: 'result'; result: CallToolResult } | { kind: 'task'; task: McpTask };
