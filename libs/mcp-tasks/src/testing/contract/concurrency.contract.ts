import type { StoreHarness } from '../store-harness.interface.js';
import { NO_LIMITS, T0, count, elicit, newTask } from '../task-fixtures.js';
import type { TestApi } from '../test-api.js';

/**
 * Races through both store instances at once. Each would fail on a store that checks then writes
 * without holding a lock in between (caps exceeded, answers lost, terminal state overwritten).
 */
export function concurrencyContract(h: () => StoreHarness, { describe, it, expect }: TestApi): void {
  const both = (i: number) => (i % 2 === 0 ? h().store : h().peer);

  describe('concurrency', () => {
    it('200 concurrent creates for one owner never exceed its cap', async () => {
      const limits = { maxPerOwner: 10, maxTotal: Infinity };
      const outcomes = await Promise.all(Array.from({ length: 200 }, (_, i) => both(i).create(newTask(), limits)));
      expect(count(outcomes, 'created')).toBe(10);
      expect(count(outcomes, 'owner-limit')).toBe(190);
      expect(await h().countLive('alice', T0)).toBe(10);
    });

    it('concurrent creates across owners never exceed the total cap', async () => {
      const limits = { maxPerOwner: 5, maxTotal: 12 };
      const owners = ['a', 'b', 'c', 'd', 'e', 'f'];
      const outcomes = await Promise.all(
        Array.from({ length: 120 }, (_, i) => both(i).create(newTask({ owner: owners[i % owners.length] }), limits)),
      );
      expect(count(outcomes, 'created')).toBe(12);
      expect(await h().countAll()).toBe(12);
      for (const owner of owners) expect(await h().countLive(owner, T0)).toBeLessThanOrEqual(5);
    });

    it('concurrent creates of several owners under the owner cap alone: each owner gets exactly its cap', async () => {
      const limits = { maxPerOwner: 4, maxTotal: Infinity };
      const owners = ['p', 'q', 'r'];
      const outcomes = await Promise.all(
        Array.from({ length: 90 }, (_, i) => both(i).create(newTask({ owner: owners[i % owners.length] }), limits)),
      );
      expect(count(outcomes, 'created')).toBe(12);
      expect(count(outcomes, 'owner-limit')).toBe(78);
      for (const owner of owners) expect(await h().countLive(owner, T0)).toBe(4);
    });

    it('concurrent creates of one owner under both caps: each refusal names the cap that refused it', async () => {
      const byTotal = await Promise.all(
        Array.from({ length: 40 }, (_, i) => both(i).create(newTask(), { maxPerOwner: 10, maxTotal: 4 })),
      );
      expect(count(byTotal, 'created')).toBe(4);
      expect(count(byTotal, 'server-limit')).toBe(36);
      const byOwner = await Promise.all(
        Array.from({ length: 40 }, (_, i) =>
          both(i).create(newTask({ owner: 'bob' }), { maxPerOwner: 3, maxTotal: 100 }),
        ),
      );
      expect(count(byOwner, 'created')).toBe(3);
      expect(count(byOwner, 'owner-limit')).toBe(37);
      expect(await h().countLive('bob', T0)).toBe(3);
    });

    it('50 concurrent answers to different keys of one task all land', async () => {
      const task = newTask();
      await h().store.create(task, NO_LIMITS);
      const keys = Array.from({ length: 50 }, (_, i) => `k${i}`);
      const requests = Object.fromEntries(keys.map((k) => [k, elicit(`${k}?`)]));
      await h().store.update(task.id, { kind: 'ask', requests }, T0 + 1);
      const outs = await Promise.all(
        keys.map((k, i) => both(i).update(task.id, { kind: 'answer', responses: { [k]: i } }, T0 + 2)),
      );
      expect(outs.every((o) => o?.changed)).toBe(true);
      // Exactly one answer was the last outstanding one.
      expect(outs.filter((o) => o?.task.status === 'working')).toHaveLength(1);
      const final = await h().store.get(task.id, T0 + 2);
      expect(final?.status).toBe('working');
      expect(final?.inputRequests).toEqual({});
      expect(final?.inputResponses).toEqual(Object.fromEntries(keys.map((k, i) => [k, i])));
    });

    it('of racing finishes exactly one wins, and the store keeps the winner', async () => {
      for (let round = 0; round < 10; round++) {
        const task = newTask();
        await h().store.create(task, NO_LIMITS);
        const [cancel, complete] = await Promise.all([
          h().store.update(task.id, { kind: 'finish', status: 'cancelled' }, T0 + 1),
          h().peer.update(task.id, { kind: 'finish', status: 'completed', result: { content: [] } }, T0 + 1),
        ]);
        expect(Number(cancel?.changed) + Number(complete?.changed)).toBe(1);
        const winner = cancel?.changed ? 'cancelled' : 'completed';
        expect((await h().store.get(task.id, T0 + 2))?.status).toBe(winner);
      }
    });

    it('a change applies to what the other instance wrote in between, not to what this one wrote last', async () => {
      const task = newTask();
      await h().store.create(task, NO_LIMITS);
      await h().store.update(task.id, { kind: 'ask', requests: { a: elicit('A?'), b: elicit('B?') } }, T0 + 1);
      await h().peer.update(task.id, { kind: 'progress', statusMessage: 'from the peer' }, T0 + 2);
      // Nobody held the task's lease: the peer takes it.
      expect(await h().peer.renewLeases([task.id], 'peer-instance', T0 + 30_000)).toEqual([task.id]);
      const answered = await h().store.update(task.id, { kind: 'answer', responses: { a: 'A' } }, T0 + 3);
      expect(answered?.task).toMatchObject({
        statusMessage: 'from the peer',
        inputRequests: { b: elicit('B?') },
        leaseOwner: 'peer-instance',
      });
      await h().peer.update(task.id, { kind: 'finish', status: 'cancelled' }, T0 + 4);
      const late = await h().store.update(task.id, { kind: 'answer', responses: { b: 'B' } }, T0 + 5);
      expect(late).toMatchObject({ changed: false, task: { status: 'cancelled', statusMessage: 'from the peer' } });
      expect(await h().store.get(task.id, T0 + 5)).toMatchObject({ status: 'cancelled', inputResponses: { a: 'A' } });
    });

    it('a progress racing an answer loses neither', async () => {
      const task = newTask();
      await h().store.create(task, NO_LIMITS);
      await h().store.update(task.id, { kind: 'ask', requests: { a: elicit('A?'), b: elicit('B?') } }, T0 + 1);
      await Promise.all([
        h().store.update(task.id, { kind: 'progress', statusMessage: 'waiting' }, T0 + 2),
        h().peer.update(task.id, { kind: 'answer', responses: { a: 'A' } }, T0 + 2),
      ]);
      expect(await h().store.get(task.id, T0 + 2)).toMatchObject({
        statusMessage: 'waiting',
        inputRequests: { b: elicit('B?') },
        inputResponses: { a: 'A' },
      });
    });
  });
}
