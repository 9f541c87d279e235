import { hasTaskMirrors, type TaskMirrors } from '../../store/capabilities/task-mirrors.interface.js';
import type { TaskRecord, TaskUpstream } from '../../store/task.record.js';
import type { StoreHarness } from '../store-harness.interface.js';
import { LOST, NO_LIMITS, T0, byText, newTask } from '../task-fixtures.js';
import type { TestApi } from '../test-api.js';
import { withCapability, type CapabilityPart } from './capability.js';
import { serverOwners } from './server-owners.js';

const MIRRORS: CapabilityPart<TaskMirrors> = {
  has: hasTaskMirrors,
  name: 'TaskMirrors (adoptLapsedMirrors)',
  skip: '{ mirrors: false }',
};

const CALLER = {
  key: '["alice","gw","app","res"]',
  subject: 'alice',
  scopes: ['files:read'],
  claims: { sub: 'alice' },
};
const upstream = (taskId = 'up-1'): TaskUpstream => ({ name: 'files', taskId, principal: CALLER });

/**
 * Tasks that mirror an upstream server's task (the gateway): the `upstream` field is kept, a lapsed lease hands
 * the mirror to another instance (`adoptLapsedMirrors`) instead of failing it, each mirror to one instance only.
 */
export function taskMirrorsContract(h: () => StoreHarness, { describe, it, expect }: TestApi): void {
  const mirror = (until: number, over: Partial<TaskRecord> = {}) =>
    newTask({ upstream: upstream(), leaseOwner: 'node-a', leaseExpiresAt: until, ...over });
  const create = async (...tasks: TaskRecord[]) => {
    for (const task of tasks) await h().store.create(task, NO_LIMITS);
  };
  const adopt = (now: number, limit = 100, owner = 'node-b', until = now + 1_000) =>
    withCapability(h().store, MIRRORS).adoptLapsedMirrors(now, limit, owner, until);

  describe('mirrors of upstream tasks', () => {
    it('is declared: the store implements TaskMirrors', () => {
      expect(hasTaskMirrors(h().store)).toBe(true);
    });

    it('keeps the upstream (name, task id, caller) through reads and every kind of change', async () => {
      const task = mirror(T0 + 500);
      await create(task);
      expect(await h().peer.get(task.id, T0)).toEqual(task);
      await h().store.update(task.id, { kind: 'progress', statusMessage: 'copying' }, T0 + 1);
      await h().store.update(task.id, { kind: 'ask', requests: { ok: { method: 'roots/list' } } }, T0 + 2);
      await h().store.update(task.id, { kind: 'answer', responses: { ok: { roots: [] } } }, T0 + 3);
      await h().store.renewLeases([task.id], 'node-a', T0 + 900);
      await h().store.update(task.id, { kind: 'finish', status: 'completed', result: { content: [] } }, T0 + 4);
      expect(await h().peer.get(task.id, T0 + 5)).toMatchObject({ status: 'completed', upstream: upstream() });
    });

    it('a lapsed mirror is not failed by reclaimExpiredLeases; adoptLapsedMirrors hands it on', async () => {
      const now = T0 + 1_000;
      const lapsed = [mirror(now - 1), mirror(T0, { status: 'input_required', upstream: upstream('up-2') })];
      const untouched = [
        mirror(now), // lapses only after now
        mirror(T0, { status: 'completed' }),
        mirror(T0, { expiresAt: now }), // expired: the sweeper's
        newTask({ leaseOwner: 'node-a', leaseExpiresAt: T0 }), // not a mirror: reclaimed (failed) instead
      ];
      await create(...lapsed, ...untouched);
      expect(await h().store.reclaimExpiredLeases(now, 100, LOST)).toEqual([untouched[3].id]);
      const adopted = await adopt(now, 100, 'node-b', now + 30_000);
      expect(adopted.map((t) => t.id).sort(byText)).toEqual(lapsed.map((t) => t.id).sort(byText));
      for (const task of lapsed) {
        const expected = { ...task, leaseOwner: 'node-b', leaseExpiresAt: now + 30_000 };
        expect(adopted.find((t) => t.id === task.id)).toEqual(expected);
        expect(await h().peer.get(task.id, now)).toEqual(expected);
      }
      expect(await h().store.get(untouched[0].id, now)).toMatchObject({ leaseOwner: 'node-a', leaseExpiresAt: now });
      expect(await adopt(now)).toEqual([]);
    });

    it("with a server, adopts only that server's mirrors (either key form), not one that reads alike", async () => {
      const now = T0 + 1_000;
      const owners = serverOwners('gw', 'other');
      const own = owners.own.map((owner) => mirror(T0, { owner }));
      const others = owners.others.map((owner) => mirror(T0, { owner }));
      await create(...own, ...others);
      const mine = await withCapability(h().store, MIRRORS).adoptLapsedMirrors(now, 100, 'node-b', now + 1_000, 'gw');
      expect(mine.map((t) => t.id).sort(byText)).toEqual(own.map((t) => t.id).sort(byText));
      for (const task of others) expect(await h().peer.get(task.id, now)).toEqual(task);
      const rest = await adopt(now);
      expect(rest.map((t) => t.id).sort(byText)).toEqual(others.map((t) => t.id).sort(byText));
    });

    it('adopts at most `limit` per call', async () => {
      await create(...Array.from({ length: 5 }, (_, i) => mirror(T0, { upstream: upstream(`up-${i}`) })));
      const sizes = [];
      for (let i = 0; i < 3; i++) sizes.push((await adopt(T0 + 1, 2)).length);
      expect(sizes).toEqual([2, 2, 1]);
    });

    it('two instances adopting at once never both take the same mirror', async () => {
      const tasks = Array.from({ length: 30 }, (_, i) => mirror(T0, { upstream: upstream(`up-${i}`) }));
      await create(...tasks);
      const drain = async (which: 'store' | 'peer') => {
        const ids: string[] = [];
        for (;;) {
          const batch = await withCapability(h()[which], MIRRORS).adoptLapsedMirrors(T0 + 1, 3, which, T0 + 10_000);
          if (batch.length === 0) return ids;
          ids.push(...batch.map((t) => t.id));
        }
      };
      const [a, b] = await Promise.all([drain('store'), drain('peer')]);
      expect(new Set([...a, ...b]).size).toBe(a.length + b.length);
      expect([...a, ...b].sort(byText)).toEqual(tasks.map((t) => t.id).sort(byText));
      for (const id of a) expect(await h().store.get(id, T0 + 1)).toMatchObject({ leaseOwner: 'store' });
      for (const id of b) expect(await h().store.get(id, T0 + 1)).toMatchObject({ leaseOwner: 'peer' });
    });
  });
}
