import type { McpTask } from './mcp-task.interface.js';

/**
 * Called with each distinct state of a task: once per change of its `status`, its `statusMessage` or its set of
 * outstanding input keys (`inputRequests`), in order, whether a poll or a `notifications/tasks` brought it. The
 * wait awaits it before going on to the next state; an exception it throws rejects the wait (the task keeps running).
 * @publicApi
 */
export type TaskUpdateListener = (task: McpTask) => void | Promise<void>;

/**
 * Options of `awaitTask` (defaults in brackets).
 * @publicApi
 */
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

/**
 * Options of `runTool` (defaults in brackets): those of `awaitTask` for a tool that runs as a task.
 * @publicApi
 */
export interface RunToolOptions extends Omit<AwaitTaskOptions, 'answer'> {
  /**
   * [none] Stops the call. A synchronous call is aborted; a task stops being followed and is cancelled
   * (`tasks/cancel`), since the caller holds no handle to it. Rejects with the signal's reason.
   */
  signal?: AbortSignal;
}
