import type { TaskStatus } from '../protocol/wire.interface.js';
import { RunStoppedError } from './run-stopped.error.js';

/**
 * Why a task's run was stopped: the client cancelled it, its ttl ran out, the server shut down, or the task was
 * ended or taken over elsewhere while it ran (its lease was reclaimed as if this instance had died, or another
 * instance runs a later attempt of it).
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
  /**
   * Resolves once the run's end is in the store (never rejects); to `null` when the task went on elsewhere: another
   * attempt runs it, and reports its end.
   */
  readonly ended: Promise<TaskRunEnd | null>;
  /** Set once the tool returned or threw: only the store write is left. */
  returned = false;
  /**
   * Set when the task is no longer this run's: another instance took it over (`lease-lost`), or shutdown released
   * it for another to resume (`shutdown`). The run writes nothing more; what it returns is dropped.
   */
  handedOver = false;
  private readonly wakers = new Set<() => void>();
  private resolveEnded!: (end: TaskRunEnd | null) => void;

  constructor(
    /** The task's attempt this run is: every write it makes carries it, and applies only at it. */
    readonly attempt = 1,
    /** The task may run again elsewhere (`resume` is set on it). */
    readonly resumable = false,
  ) {
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

  /** Stops the run for good: the task goes on elsewhere (see `handedOver`). */
  handOver(reason: Extract<AbortReason, 'lease-lost' | 'shutdown'>): void {
    this.handedOver = true;
    this.abort(reason);
  }

  /** Records how the run ended (the first call counts). */
  end(end: TaskRunEnd | null): void {
    this.resolveEnded(end);
  }
}
