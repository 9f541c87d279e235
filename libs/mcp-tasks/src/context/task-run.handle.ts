import type { TaskStatus } from '../protocol/wire.interface.js';
import { RunStoppedError } from './run-stopped.error.js';

/**
 * Why a task's run was stopped: the client cancelled it, its ttl ran out, the server shut down, or the task was
 * ended elsewhere while it ran (its lease was reclaimed, as if this instance had died).
 */
export type AbortReason = 'cancelled' | 'expired' | 'shutdown' | 'lease-lost';

/** Why a run stops when its task was found ended by someone else (or `undefined`: gone, its ttl ran out). */
export const stopReason = (status: TaskStatus | undefined): AbortReason =>
  status === undefined ? 'expired' : status === 'cancelled' ? 'cancelled' : 'lease-lost';

/** The `signal.reason` of a stopped task run: an Error (tools may pass it on) whose message is the reason. */
export class TaskAbortedError extends RunStoppedError {
  constructor(readonly reason: AbortReason) {
    super(reason);
  }
}

/**
 * How a task's run ended, as the store holds it once the run's outcome was written: the task's final status, or
 * `expired` when the store no longer serves it (its ttl ran out first).
 */
export interface TaskRunEnd {
  status: Extract<TaskStatus, 'completed' | 'failed' | 'cancelled'> | 'expired';
  /** A `completed` task whose result is a tool error. */
  isError: boolean;
  /** A `failed` task's error. */
  error?: { code: number; message: string };
}

/** This instance's hold on a task it is running: how to abort it, wake its waits, and learn how it ended. */
export class TaskRunHandle {
  readonly controller = new AbortController();
  /** Resolves once the run's end is in the store (never rejects). */
  readonly ended: Promise<TaskRunEnd>;
  /** Set once the tool returned or threw: only the store write is left. */
  returned = false;
  private readonly wakers = new Set<() => void>();
  private resolveEnded!: (end: TaskRunEnd) => void;

  constructor() {
    this.ended = new Promise((resolve) => (this.resolveEnded = resolve));
  }

  /** Why the run was stopped, once it was. */
  get abortReason(): AbortReason | undefined {
    const reason: unknown = this.controller.signal.reason;
    return reason instanceof TaskAbortedError ? reason.reason : undefined;
  }

  /** Resolves on `wake()`, after `ms`, or when the run is aborted, whichever comes first. */
  waitForChange(ms: number): Promise<void> {
    const signal = this.controller.signal;
    if (signal.aborted) return Promise.resolve();
    return new Promise((resolve) => {
      const done = (): void => {
        clearTimeout(timer);
        signal.removeEventListener('abort', done);
        this.wakers.delete(done);
        resolve();
      };
      const timer = setTimeout(done, ms);
      signal.addEventListener('abort', done, { once: true });
      this.wakers.add(done);
    });
  }

  wake(): void {
    // Each waker removes itself; a Set keeps iterating past a deleted entry.
    for (const w of this.wakers) w();
  }

  abort(reason: AbortReason): void {
    this.controller.abort(new TaskAbortedError(reason));
  }

  /** Records how the run ended (the first call counts). */
  end(end: TaskRunEnd): void {
    this.resolveEnded(end);
  }
}
