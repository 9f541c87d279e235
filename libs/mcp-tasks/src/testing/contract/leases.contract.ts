import type { TaskRecord } from '../../store/task.record.js';
import type { StoreHarness } from '../store-harness.interface.js';
import { LOST, NO_LIMITS, T0, TTL, byText, newTask } from '../task-fixtures.js';
import type { TestApi } from '../test-api.js';

/**
 * Leases: a runner renews its own (never one another instance holds); when it stops, any instance fails its tasks,
 * each exactly once.
 */
export function leasesContract(h: () => StoreHarness, { describe, it, expect }: TestApi): void {
  const leased = (until: number, over: Partial<TaskRecord> = {}) =>
    newTask({ leaseOwner: 'node-a', leaseExpiresAt: until, ...over });
  const create = async (...tasks: TaskRecord[]) => {
    for (const task of tasks) await h().store.create(task, NO_LIMITS);
  };

  describe('renewLeases', () => {
    it('renews what the caller or nobody holds, resolving to those ids; ignores terminal, unknown ids', async () => {
      const [running, waiting, done] = [
        leased(T0 + 10),
        newTask({ status: 'input_required' }),
        leased(T0 + 10, { status: 'completed' }),
      ];
      await create(running, waiting, done);
      const renewed = await h().store.renewLeases(
        [running.id, waiting.id, done.id, 'no-such-task'],
        'node-a',
        T0 + 500,
      );
      expect([...(renewed ?? [])].sort(byText)).toEqual([running.id, waiting.id].sort(byText));
      expect(await h().store.get(running.id, T0)).toMatchObject({ leaseOwner: 'node-a', leaseExpiresAt: T0 + 500 });
      expect(await h().store.get(waiting.id, T0)).toMatchObject({ leaseOwner: 'node-a', leaseExpiresAt: T0 + 500 });
      expect(await h().store.get(done.id, T0)).toMatchObject({ leaseOwner: 'node-a', leaseExpiresAt: T0 + 10 });
      expect(await h().store.renewLeases([], 'node-b', T0 + 900)).toEqual([]);
    });

    it('never takes a lease another instance holds, lapsed or not; its holder still renews it', async () => {
      // A runner paused past its lease must not take back a task another instance took over in the meantime.
      const [current, lapsed] = [leased(T0 + 1_000), leased(T0)];
      await create(current, lapsed);
      expect(await h().peer.renewLeases([current.id, lapsed.id], 'node-b', T0 + 5_000)).toEqual([]);
      expect(await h().store.get(current.id, T0)).toMatchObject({ leaseOwner: 'node-a', leaseExpiresAt: T0 + 1_000 });
      expect(await h().store.get(lapsed.id, T0)).toMatchObject({ leaseOwner: 'node-a', leaseExpiresAt: T0 });
      // Nobody took the lapsed one over: its own runner may carry on.
      expect(await h().store.renewLeases([lapsed.id], 'node-a', T0 + 5_000)).toEqual([lapsed.id]);
      expect(await h().store.get(lapsed.id, T0)).toMatchObject({ leaseOwner: 'node-a', leaseExpiresAt: T0 + 5_000 });
    });

    it('a renewed lease is not reclaimed', async () => {
      const task = leased(T0 + 10);
      await create(task);
      await h().store.renewLeases([task.id], 'node-a', T0 + 1_000);
      expect(await h().store.reclaimExpiredLeases(T0 + 500, 10, LOST)).toEqual([]);
    });

    it('does not touch the fields a concurrent update moves', async () => {
      const task = leased(T0 + 10);
      await create(task);
      await Promise.all([
        h().store.renewLeases([task.id], 'node-a', T0 + 100),
        h().peer.update(task.id, { kind: 'progress', statusMessage: 'busy' }, T0 + 5),
      ]);
      expect(await h().store.get(task.id, T0 + 5)).toMatchObject({ statusMessage: 'busy', leaseExpiresAt: T0 + 100 });
    });
  });

  describe('reclaimExpiredLeases', () => {
    it('fails exactly the live tasks whose lease lapsed before now', async () => {
      const now = T0 + 1_000;
      const lapsed = [
        leased(now - 1),
        leased(T0, { status: 'input_required', inputRequests: { a: { method: 'roots/list' } } }),
      ];
      const untouched = [
        leased(now), // lapses only after now
        leased(now + 1),
        newTask(), // never leased
        leased(T0, { status: 'cancelled' }),
        leased(T0, { expiresAt: now }), // expired: the sweeper's, not ours
      ];
      await create(...lapsed, ...untouched);
      const ids = await h().store.reclaimExpiredLeases(now, 100, LOST);
      expect(ids.sort(byText)).toEqual(lapsed.map((t) => t.id).sort(byText));
      for (const task of lapsed) {
        expect(await h().store.get(task.id, now)).toMatchObject({
          status: 'failed',
          error: LOST,
          inputRequests: {},
          updatedAt: now,
        });
      }
      for (const task of untouched.slice(0, 4))
        expect(await h().store.get(task.id, now)).toMatchObject({ status: task.status, updatedAt: T0 });
      expect(await h().store.reclaimExpiredLeases(now, 100, LOST)).toEqual([]);
    });

    it('reclaims at most `limit` per call', async () => {
      await create(...Array.from({ length: 7 }, () => leased(T0)));
      const sizes = [];
      for (let i = 0; i < 4; i++) sizes.push((await h().store.reclaimExpiredLeases(T0 + 1, 3, LOST)).length);
      expect(sizes).toEqual([3, 3, 1, 0]);
    });

    it('a late finish or renewal from the lost runner does not revive a reclaimed task', async () => {
      const task = leased(T0);
      await create(task);
      await h().store.reclaimExpiredLeases(T0 + 1, 10, LOST);
      await h().store.renewLeases([task.id], 'node-a', T0 + TTL);
      const late = await h().store.update(
        task.id,
        { kind: 'finish', status: 'completed', result: { content: [] } },
        T0 + 2,
      );
      expect(late?.changed).toBe(false);
      expect(await h().store.get(task.id, T0 + 2)).toMatchObject({ status: 'failed', error: LOST, leaseExpiresAt: T0 });
    });

    it('two instances reclaiming at once never both take the same task', async () => {
      const tasks = Array.from({ length: 40 }, () => leased(T0));
      await create(...tasks);
      const drain = async (which: 'store' | 'peer') => {
        const ids: string[] = [];
        for (let batch = await h()[which].reclaimExpiredLeases(T0 + 1, 4, LOST); batch.length > 0;) {
          ids.push(...batch);
          batch = await h()[which].reclaimExpiredLeases(T0 + 1, 4, LOST);
        }
        return ids;
      };
      const [a, b] = await Promise.all([drain('store'), drain('peer')]);
      expect(new Set([...a, ...b]).size).toBe(a.length + b.length);
      expect([...a, ...b].sort(byText)).toEqual(tasks.map((t) => t.id).sort(byText));
      expect(await h().countLive('alice', T0 + 1)).toBe(0);
    });
  });
}
