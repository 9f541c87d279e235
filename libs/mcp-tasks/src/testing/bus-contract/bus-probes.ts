import { randomUUID } from 'node:crypto';
import type { TaskEvent, TaskEventBus } from '../../events/task-event-bus.interface.js';

/** The instances one contract suite runs on: `a` publishes, `b` and `c` hear (or not). */
export interface BusTrio {
  a: TaskEventBus;
  b: TaskEventBus;
  c: TaskEventBus;
  /** The harness's `cut`, when it has one. */
  cut?: (bus: TaskEventBus) => Promise<() => Promise<void>>;
}

/** What one subscription heard, in order. */
export interface Heard {
  events: TaskEvent[];
  /** Those about `taskId`, but for the probes `untilHeard` sends (`input-answered`: checks use other types). */
  of(taskId: string): TaskEvent[];
  stop(): void;
}

export function listen(bus: TaskEventBus): Heard {
  const events: TaskEvent[] = [];
  const stop = bus.subscribe((e) => events.push(e));
  return { events, of: (id) => events.filter((e) => e.taskId === id && e.type !== 'input-answered'), stop };
}

export const newId = (): string => `bus-contract-${randomUUID()}`;

export const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** Waits until `check` holds, or fails saying what was awaited after `ms`. */
export async function until(what: string, check: () => boolean, ms = 10_000): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error(`bus contract: timed out waiting for ${what}`);
    await sleep(20);
  }
}

/**
 * Publishes `probe` from `from` until `to` hears it: a follow (a broker subscription) takes effect some time after
 * the call, and the checks after it must not race it.
 */
export async function untilHeard(from: TaskEventBus, to: TaskEventBus, probe: TaskEvent): Promise<void> {
  const heard = listen(to);
  try {
    const end = Date.now() + 10_000;
    while (!heard.events.some((e) => e.taskId === probe.taskId)) {
      if (Date.now() > end) throw new Error(`bus contract: ${probe.taskId} never reached the follower`);
      await from.publish(probe);
      await sleep(50);
    }
  } finally {
    heard.stop();
  }
}

/** Follows `topic` on `bus` (a no-op on a bus without `follow`) and waits until `from`'s events on it arrive. */
export async function followed(bus: TaskEventBus, from: TaskEventBus, topic: string): Promise<() => void> {
  const unfollow = bus.follow?.(topic) ?? (() => {});
  await untilHeard(from, bus, { type: 'input-answered', taskId: topic });
  return unfollow;
}
