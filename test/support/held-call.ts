/** A store whose next call of one method waits until the test lets it go on. */
export interface HeldCall<T extends object> {
  store: T;
  /** The next call of the method waits (before it reaches the store) until `release`. */
  hold: () => void;
  /** Resolves once a call is waiting. */
  waiting: () => Promise<void>;
  /** The waiting call goes on to the store. */
  release: () => void;
  /** Resolves once the held call returned or threw. */
  settled: () => Promise<void>;
}

/**
 * `store` with one method, `method`, that the test can hold open: a query the instance sent that the database has
 * not run yet (slow under load), while everything else — the instance's other calls too — goes on.
 */
export function heldCall<T extends object>(store: T, method: keyof T & string): HeldCall<T> {
  let armed = false;
  let reached = (): void => undefined;
  const reachedOnce = new Promise<void>((resolve) => (reached = resolve));
  let open = (): void => undefined;
  const opened = new Promise<void>((resolve) => (open = resolve));
  let settle = (): void => undefined;
  const settledOnce = new Promise<void>((resolve) => (settle = resolve));
  const proxy = new Proxy(store, {
    get(target, key) {
      const value: unknown = Reflect.get(target, key, target);
      if (typeof value !== 'function' || key === 'constructor') return value;
      const fn = (value as (...a: unknown[]) => unknown).bind(target);
      if (key !== method) return fn;
      return async (...args: unknown[]) => {
        if (!armed) return fn(...args);
        armed = false;
        reached();
        await opened;
        try {
          return await fn(...args);
        } finally {
          settle();
        }
      };
    },
  });
  return {
    store: proxy,
    hold: () => (armed = true),
    waiting: () => reachedOnce,
    release: open,
    settled: () => settledOnce,
  };
}
