import { setTimeout as sleep } from 'node:timers/promises';

/**
 * Polls `probe` until it returns something truthy, and returns that; fails naming `what` after `ms`.
 * Generous by default: CI is a loaded 2-core machine.
 */
export async function until<T>(
  what: string,
  probe: () => Promise<T> | T,
  ms = 30_000,
  every = 50,
): Promise<NonNullable<T>> {
  const deadline = Date.now() + ms;
  let last: unknown;
  for (;;) {
    try {
      const value = await probe();
      if (value) return value as NonNullable<T>;
      last = value;
    } catch (err) {
      last = err;
    }
    if (Date.now() > deadline) throw new Error(`${what}: not so after ${ms} ms (last: ${String(last)})`);
    await sleep(every);
  }
}
