import type { StoreHarness } from '../store-harness.interface.js';
import { NO_LIMITS, T0, TTL, newTask } from '../task-fixtures.js';
import type { TestApi } from '../test-api.js';

/** `sweep` deletes expired tasks only, at most `limit` per call. */
export function sweepContract(h: () => StoreHarness, { describe, it, expect }: TestApi): void {
  describe('sweep', () => {
    it('deletes expired tasks in batches and keeps the rest', async () => {
      const expired = Array.from({ length: 25 }, () => newTask());
      const kept = [
        newTask({ expiresAt: T0 + 10 * TTL }),
        newTask({ expiresAt: null }),
        newTask({ status: 'completed', expiresAt: null }),
      ];
      for (const task of [...expired, ...kept]) await h().store.create(task, NO_LIMITS);
      const now = T0 + TTL;
      const batches = [];
      for (let i = 0; i < 4; i++) batches.push(await h().store.sweep(now, 10));
      expect(batches).toEqual([10, 10, 5, 0]);
      expect(await h().countAll()).toBe(kept.length);
      for (const task of kept) expect((await h().store.get(task.id, now))?.id).toBe(task.id);
    });

    it('concurrent sweeps from two instances delete each task once', async () => {
      for (let i = 0; i < 30; i++) await h().store.create(newTask(), NO_LIMITS);
      const deleted = await Promise.all([h().store.sweep(T0 + TTL, 100), h().peer.sweep(T0 + TTL, 100)]);
      expect(deleted[0] + deleted[1]).toBe(30);
      expect(await h().countAll()).toBe(0);
    });

    it('deletes nothing before expiry', async () => {
      await h().store.create(newTask(), NO_LIMITS);
      expect(await h().store.sweep(T0 + TTL - 1, 10)).toBe(0);
      expect(await h().countAll()).toBe(1);
    });
  });
}
