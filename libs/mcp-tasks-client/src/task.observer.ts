import { timerDelay } from './duration.rule.js';
import { isTerminal, type TaskUpdateFeed } from './task-update.feed.js';
import type { McpTask } from './mcp-task.interface.js';
import { taskFromWire } from './mcp-task.mapper.js';
import type { TaskNotificationTap } from './task-notification.tap.js';

/** ext-tasks' own default when the server suggests no interval. */
const DEFAULT_POLL_MS = 1000;
/** ext-tasks' own floor under a server's hint. */
const MIN_POLL_MS = 10;

export interface ObserveOptions {
  /** How much rarer than the server's hint polls are (1 without a listen stream). */
  pollFactor: number;
  signal?: AbortSignal;
  feed: TaskUpdateFeed;
}

/**
 * Follows a task without answering its questions (`awaitTask({ answer: false })`), so ext-tasks — which
 * answers every question it sees — is not involved: `tasks/get` at the server's `pollIntervalMs`, and a
 * notified task taken as read at once.
 */
export async function observeTask(
  taskId: string,
  read: (signal?: AbortSignal) => Promise<McpTask>,
  tap: TaskNotificationTap,
  { pollFactor, signal, feed }: ObserveOptions,
): Promise<McpTask> {
  let pushed: McpTask | undefined;
  let wake: (() => void) | undefined;
  const unsubscribe = tap.listen(taskId, (raw) => {
    pushed = taskFromWire(raw);
    wake?.();
  });
  try {
    let task = await read(signal);
    for (;;) {
      await feed.offer(task);
      if (isTerminal(task.status)) return task;
      // The server's hint held within what a timer takes (as ext-tasks does): not a number, or past 2^31-1 ms,
      // it would not pause at all.
      const hint = Math.max(MIN_POLL_MS, timerDelay(task.pollIntervalMs, DEFAULT_POLL_MS));
      const pause = timerDelay(hint * pollFactor, DEFAULT_POLL_MS);
      if (!pushed) await sleep(pause, (w) => (wake = w), signal);
      task = pushed ?? (await read(signal));
      pushed = undefined;
    }
  } finally {
    unsubscribe();
  }
}

/** Waits `ms`, or less when the waker it hands out is called; rejects when `signal` aborts. */
function sleep(ms: number, setWaker: (wake: () => void) => void, signal?: AbortSignal): Promise<void> {
  signal?.throwIfAborted();
  return new Promise((resolve, reject) => {
    const done = (): void => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
      resolve();
    };
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    const timer = setTimeout(done, ms);
    setWaker(done);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
