import { randomUUID } from 'node:crypto';
import type { StoreHarness } from '../store-harness.interface.js';
import { NO_LIMITS, T0, TTL, newTask } from '../task-fixtures.js';
import type { TestApi } from '../test-api.js';

/** `statuses` (optional): one read of many tasks' statuses, as `get` would see them. */
export function statusesContract(h: () => StoreHarness, { describe, it, expect }: TestApi): void {
  describe('statuses', () => {
    it('reads the status of each existing, unexpired task; unknown and expired ids are absent', async () => {
      const store = h().store;
      if (!store.statuses) return;
      const working = newTask();
      const cancelled = newTask();
      const lasting = newTask({ expiresAt: null });
      const expired = newTask({ expiresAt: T0 + 10 });
      for (const task of [working, cancelled, lasting, expired]) await store.create(task, NO_LIMITS);
      await store.update(cancelled.id, { kind: 'finish', status: 'cancelled' }, T0 + 1);
      // More ids than one statement should bind, most of them unknown.
      const unknown = Array.from({ length: 1_200 }, () => randomUUID());
      const ids = [...unknown.slice(0, 600), working.id, cancelled.id, lasting.id, expired.id, ...unknown.slice(600)];
      const read = await h().peer.statuses!(ids, T0 + 20);
      expect(Object.fromEntries(read)).toEqual({
        [working.id]: 'working',
        [cancelled.id]: 'cancelled',
        [lasting.id]: 'working',
      });
      expect((await store.statuses(ids, T0 + TTL)).get(lasting.id)).toBe('working');
      expect((await store.statuses([], T0)).size).toBe(0);
    });
  });
}
