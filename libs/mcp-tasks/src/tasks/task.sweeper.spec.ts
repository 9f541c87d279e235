import { describe, expect, it } from '@jest/globals';
import { LocalTaskEventBus } from '../events/local-task-event.bus.js';
import { resolveOptions } from '../options/resolve-options.js';
import { MemoryTaskStore } from '../store/memory/memory-task.store.js';
import { NO_LIMITS, newTask, T0 } from '../testing/task-fixtures.js';
import { SWEEP_BATCH, TaskSweeper } from './task.sweeper.js';

const options = resolveOptions({ server: { name: 's', version: '1' } });

async function storeWith(expired: number, live: number): Promise<MemoryTaskStore> {
  const store = new MemoryTaskStore();
  for (let i = 0; i < expired; i++) await store.create(newTask({ expiresAt: T0 - 1 }), NO_LIMITS);
  for (let i = 0; i < live; i++) await store.create(newTask({ expiresAt: T0 + 60_000 }), NO_LIMITS);
  return store;
}

describe('TaskSweeper.sweep', () => {
  it('clears a backlog of many batches, and only the expired tasks', async () => {
    const store = await storeWith(1_234, 7);
    const sweeper = new TaskSweeper(options, store, new LocalTaskEventBus());
    expect(await sweeper.sweep(T0)).toBe(1_234);
    expect(await store.sweep(T0, 10_000)).toBe(0);
    expect(await sweeper.sweep(T0 + 60_000)).toBe(7);
  });

  it('stops between batches once the app shuts down', async () => {
    const store = await storeWith(4 * SWEEP_BATCH, 0);
    const sweeper = new TaskSweeper(options, store, new LocalTaskEventBus());
    const sweeping = sweeper.sweep(T0);
    sweeper.onApplicationShutdown();
    expect(await sweeping).toBe(SWEEP_BATCH);
    expect(await store.sweep(T0, 10_000)).toBe(3 * SWEEP_BATCH);
  });

  it('between batches of a backlog, leaves the store alone three times as long as the batch took', async () => {
    const batches = [SWEEP_BATCH, SWEEP_BATCH, 0];
    // A store whose every sweep batch takes at least 20 ms.
    const slow = {
      sweep: async () => {
        await new Promise((resolve) => setTimeout(resolve, 20));
        return batches.shift() ?? 0;
      },
    } as unknown as MemoryTaskStore;
    const sweeper = new TaskSweeper(options, slow, new LocalTaskEventBus());
    const started = performance.now();
    expect(await sweeper.sweep(T0)).toBe(2 * SWEEP_BATCH);
    // Three batches of ≥ 20 ms and two pauses of ≥ 60 ms (a pause as long as the batch would make ≥ 100 ms).
    expect(performance.now() - started).toBeGreaterThanOrEqual(170);
  });
});
