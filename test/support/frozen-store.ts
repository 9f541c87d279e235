import type { TaskStore } from '@mcp-tasks/nestjs';

/** A store as one instance sees it, which the test can freeze and thaw: a stopped process (SIGSTOP), in-process. */
export interface FreezableStore<T extends TaskStore> {
  store: T;
  /** From now on every call waits (those under way finish): the instance no longer reaches the database. */
  freeze: () => void;
  /** The waiting calls go on, in order. */
  thaw: () => void;
}

/**
 * `store` behind a gate: while frozen no call of the instance's reaches it — no renewal, no takeover, no write —
 * as if its process were stopped, while other instances (given `store` itself) carry on.
 */
export function freezable<T extends TaskStore>(store: T): FreezableStore<T> {
  let gate: Promise<void> | undefined;
  let open = (): void => undefined;
  const proxy = new Proxy(store, {
    get(target, key) {
      const value: unknown = Reflect.get(target, key, target);
      if (typeof value !== 'function' || key === 'constructor') return value;
      return async (...args: unknown[]) => {
        while (gate) await gate;
        return (value as (...a: unknown[]) => unknown).apply(target, args);
      };
    },
  });
  return {
    store: proxy,
    freeze: () => {
      gate ??= new Promise<void>((resolve) => (open = resolve));
    },
    thaw: () => {
      gate = undefined;
      open();
    },
  };
}
