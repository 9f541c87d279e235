/** Why a task's run was stopped: the client cancelled it, its ttl ran out, or the server shut down. */
export type AbortReason = 'cancelled' | 'expired' | 'shutdown';

/** The `signal.reason` of a stopped run: an Error (tools may pass it on) whose message is the reason. */
export class TaskAbortedError extends Error {
  constructor(readonly reason: AbortReason) {
    super(reason);
  }
}

/** This instance's hold on a task it is running: how to abort it and how to wake its waits. */
export class TaskRunHandle {
  readonly controller = new AbortController();
  private readonly wakers = new Set<() => void>();

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
}
