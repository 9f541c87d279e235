import type { McpInputRequest, McpTask } from '../mcp-task.interface.js';

/** Shows a task while it runs: a live bar or spinner on a terminal, plain lines otherwise. */
export interface TaskDisplay {
  /** The task is known (created, or found for `watch`). */
  start(task: McpTask, label: string): void;
  /** A new state of the task (`onUpdate`). */
  update(task: McpTask): void;
  /** Takes the live line off the screen while a question is asked; updates wait. */
  pause(): void;
  /** Shows the latest state again after a question. */
  resume(): void;
  /** A line above the live area. */
  note(line: string): void;
  /** Ends the live area; with the final task, says how it ended. */
  stop(final?: McpTask): void;
}

/** One line for a state: `working: exporting demo (2/5)`, `input_required: Delete x?`. */
export function describeState(task: McpTask): string {
  const asks = Object.values(task.inputRequests ?? {})
    .map(questionText)
    .join(' / ');
  const detail = task.status === 'input_required' && asks ? asks : task.statusMessage;
  const status = task.result?.isError ? `${task.status} with a tool error` : task.status;
  return detail ? `${status}: ${detail}` : status;
}

/** What a question asks: an elicitation's message, else the request's method. */
export function questionText(request: McpInputRequest): string {
  const message = request.params?.message;
  return typeof message === 'string' ? message : request.method;
}
