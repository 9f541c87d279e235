/** This instance's hold on a task it is running: how to abort it and how to wake its waits. */
export class TaskRunHandle {
  readonly controller = new AbortController();
  private readonly wakers = new Set<() => void>();

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

  abort(reason: string): void {
    this.controller.abort(new Error(reason));
  }
}
