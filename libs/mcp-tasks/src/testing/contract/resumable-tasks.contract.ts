import { hasResumableTasks, type ResumableTasks } from '../../store/capabilities/resumable-tasks.interface.js';
import type { TaskChange, TaskRecord, TaskResume } from '../../store/task.record.js';
import type { StoreHarness } from '../store-harness.interface.js';
import { LOST, NO_LIMITS, T0, byText, elicit, newTask } from '../task-fixtures.js';
import type { TestApi } from '../test-api.js';
import { withCapability, type CapabilityPart } from './capability.js';
import { serverOwners } from './server-owners.js';

const RESUMABLE: CapabilityPart<ResumableTasks> = {
  has: hasResumableTasks,
  name: 'ResumableTasks (adoptLapsedRuns, releaseLeases)',
  skip: '{ resumable: false }',
};

const resume = (maxAttempts = 3): TaskResume => ({
  args: { path: '/exports/q3.csv', rows: [1, 2] },
  maxAttempts,
  call: {
    protocolVersion: '2026-07-28',
    clientCapabilities: { elicitation: {} },
    clientInfo: { name: 'client', version: '1.0.0' },
    principal: { key: 'alice', subject: 'alice', scopes: ['files:read'], claims: { sub: 'alice' } },
    requestId: 7,
  },
});
const NOTES = {
  statusMessage: (attempt: number, maxAttempts: number) => `Resumed (attempt ${attempt} of ${maxAttempts})`,
  exhausted: (attempts: number) => ({ code: -32603, message: `Gave up after ${attempts} attempts` }),
};

/**
 * Tasks of tools that may run again from the start (`resume`): a lapsed lease hands the task to another instance
 * (`adoptLapsedRuns`: one attempt more, each task to one caller only) instead of failing it, until the last attempt;
 * a stopping instance hands its tasks over at once (`releaseLeases`).
 */
export function resumableTasksContract(h: () => StoreHarness, { describe, it, expect }: TestApi): void {
  const run = (until: number, over: Partial<TaskRecord> = {}) =>
    newTask({ resume: resume(), leaseOwner: 'node-a', leaseExpiresAt: until, ...over });
  const create = async (...tasks: TaskRecord[]) => {
    for (const task of tasks) await h().store.create(task, NO_LIMITS);
  };
  const adopt = (now: number, limit = 100, owner = 'node-b', until = now + 1_000, which: 'store' | 'peer' = 'store') =>
    withCapability(h()[which], RESUMABLE).adoptLapsedRuns(now, limit, owner, until, NOTES);
  const ids = (tasks: TaskRecord[]) => tasks.map((t) => t.id).sort(byText);

  describe('resumable tasks', () => {
    it('is declared: the store implements ResumableTasks', () => {
      expect(hasResumableTasks(h().store)).toBe(true);
    });

    it('keeps resume (arguments, bound, call) through reads and every kind of change', async () => {
      const task = run(T0 + 500, { attempt: 2, checkpoint: { step: 1 } });
      await create(task);
      expect(await h().peer.get(task.id, T0)).toEqual(task);
      await h().store.update(task.id, { kind: 'progress', statusMessage: 'on', attempt: 2 }, T0 + 1);
      await h().store.update(task.id, { kind: 'ask', requests: { a: elicit('A?') }, attempt: 2 }, T0 + 2);
      await h().peer.update(task.id, { kind: 'answer', responses: { a: 'A' } }, T0 + 3);
      await h().store.update(task.id, { kind: 'checkpoint', value: { step: 2 }, attempt: 2 }, T0 + 4);
      await h().store.update(task.id, { kind: 'finish', status: 'completed', result: { content: [] } }, T0 + 5);
      expect(await h().peer.get(task.id, T0 + 5)).toMatchObject({ resume: resume(), checkpoint: { step: 2 } });
    });

    it('a lapsed run is taken over: one attempt more, the lease, a message; all else kept', async () => {
      const now = T0 + 1_000;
      const task = run(T0, {
        status: 'input_required',
        statusMessage: 'half way',
        inputRequests: { b: elicit('B?') },
        inputResponses: { a: 'A' },
        checkpoint: { rows: 500 },
      });
      await create(task);
      const taken = { ...task, attempt: 2, leaseOwner: 'node-b', leaseExpiresAt: now + 30_000, updatedAt: now };
      taken.statusMessage = 'Resumed (attempt 2 of 3)';
      expect(await adopt(now, 10, 'node-b', now + 30_000)).toEqual({ adopted: [taken], exhausted: [] });
      expect(await h().peer.get(task.id, now)).toEqual(taken);
      expect(await adopt(now)).toEqual({ adopted: [], exhausted: [] });
      // The first attempt's writes, through the instance that ran it, change nothing; the second's apply.
      const late: TaskChange[] = [
        { kind: 'progress', statusMessage: 'late', attempt: 1 },
        { kind: 'checkpoint', value: { rows: 0 }, attempt: 1 },
        { kind: 'finish', status: 'completed', result: { content: [] }, attempt: 1 },
      ];
      for (const change of late)
        expect(await h().store.update(task.id, change, now + 1)).toEqual({ changed: false, task: taken });
      expect((await h().store.renewLeases([task.id], 'node-a', now + 60_000)) ?? []).toEqual([]);
      const done = await h().peer.update(task.id, { kind: 'finish', status: 'completed', attempt: 2 }, now + 2);
      expect(done?.changed).toBe(true);
    });

    it('takes only live, unexpired runs whose lease lapsed; reclaimExpiredLeases leaves them to it', async () => {
      const now = T0 + 1_000;
      const lapsed = [run(now - 1), run(T0, { status: 'input_required', inputRequests: { a: elicit('A?') } })];
      const plain = newTask({ leaseOwner: 'node-a', leaseExpiresAt: T0 });
      const untouched = [
        run(now), // lapses only after now
        run(T0, { status: 'completed' }),
        run(T0, { status: 'cancelled' }),
        run(T0, { status: 'failed' }),
        newTask({ resume: resume() }), // never leased
        run(T0, { expiresAt: now }), // expired: the sweeper's
      ];
      await create(...lapsed, plain, ...untouched);
      expect(await h().store.reclaimExpiredLeases(now, 100, LOST)).toEqual([plain.id]);
      const { adopted, exhausted } = await adopt(now);
      expect([ids(adopted), exhausted]).toEqual([ids(lapsed), []]);
      for (const task of untouched.slice(0, 5)) expect(await h().peer.get(task.id, now)).toEqual(task);
      expect(await adopt(now)).toEqual({ adopted: [], exhausted: [] });
    });

    it('at its last attempt, a lapsed run ends failed with the error given, and is not taken over', async () => {
      const now = T0 + 1_000;
      const last = run(T0, { attempt: 3, status: 'input_required', inputRequests: { a: elicit('A?') } });
      const only = run(T0, { resume: resume(1) });
      const more = run(T0, { attempt: 2 });
      await create(last, only, more);
      const { adopted, exhausted } = await adopt(now);
      expect([ids(adopted), exhausted.sort(byText)]).toEqual([[more.id], ids([last, only])]);
      expect(adopted[0]).toMatchObject({ attempt: 3, statusMessage: 'Resumed (attempt 3 of 3)' });
      const failed = { status: 'failed', inputRequests: {}, updatedAt: now };
      expect(await h().peer.get(last.id, now)).toMatchObject({ ...failed, error: NOTES.exhausted(3) });
      expect(await h().peer.get(only.id, now)).toMatchObject({ ...failed, error: NOTES.exhausted(1) });
      expect(await adopt(now + 5_000)).toEqual({ adopted: [], exhausted: [more.id] });
      expect(await h().countLive('alice', now + 5_000)).toBe(0);
    });

    it("with a server, takes only that server's runs (either key form), not one that reads alike", async () => {
      const now = T0 + 1_000;
      const owners = serverOwners('jobs', 'reports');
      const own = owners.own.map((owner) => run(T0, { owner }));
      const others = owners.others.map((owner) => run(T0, { owner }));
      others.push(run(T0, { owner: owners.others[0], attempt: 3 })); // its last attempt: not this server's to end
      await create(...own, ...others);
      const on = (server: string) =>
        withCapability(h().store, RESUMABLE).adoptLapsedRuns(now, 100, 'node-b', now + 1_000, NOTES, server);
      const jobs = await on('jobs');
      expect([ids(jobs.adopted), jobs.exhausted]).toEqual([ids(own), []]);
      for (const task of others) expect(await h().peer.get(task.id, now)).toEqual(task);
      const rest = await adopt(now);
      expect([ids(rest.adopted), rest.exhausted]).toEqual([ids(others.slice(0, 4)), [others[4].id]]);
    });

    it('a run cancelled while no instance runs it is never taken over; an answer meanwhile is kept', async () => {
      const [cancelled, answered] = [
        run(T0),
        run(T0, { status: 'input_required', inputRequests: { a: elicit('A?') } }),
      ];
      await create(cancelled, answered);
      await h().peer.update(cancelled.id, { kind: 'finish', status: 'cancelled' }, T0 + 1);
      await h().peer.update(answered.id, { kind: 'answer', responses: { a: 'A' } }, T0 + 1);
      const { adopted } = await adopt(T0 + 2);
      expect(adopted.map((t) => [t.id, t.status, t.inputResponses])).toEqual([[answered.id, 'working', { a: 'A' }]]);
      expect(await h().store.get(cancelled.id, T0 + 2)).toMatchObject({ status: 'cancelled', leaseOwner: 'node-a' });
    });

    it('takes at most `limit` per call, oldest lapse first, ended runs counted', async () => {
      const runs = [1, 2, 3, 4, 5].map((i) => run(T0 + i, i === 2 ? { attempt: 3 } : {}));
      await create(...runs.slice().reverse());
      const first = await adopt(T0 + 10, 2);
      expect([first.exhausted, ids(first.adopted)]).toEqual([[runs[1].id], [runs[0].id]]);
      const sizes = [];
      for (let i = 0; i < 3; i++) sizes.push((await adopt(T0 + 10, 2)).adopted.length);
      expect(sizes).toEqual([2, 1, 0]);
    });

    it('two instances taking over at once never both take the same run', async () => {
      const tasks = Array.from({ length: 30 }, () => run(T0));
      await create(...tasks);
      const drain = async (which: 'store' | 'peer') => {
        const taken: string[] = [];
        for (;;) {
          const { adopted } = await adopt(T0 + 1, 3, which, T0 + 10_000, which);
          if (adopted.length === 0) return taken;
          taken.push(...adopted.map((t) => t.id));
        }
      };
      const [a, b] = await Promise.all([drain('store'), drain('peer')]);
      expect(new Set([...a, ...b]).size).toBe(a.length + b.length);
      expect([...a, ...b].sort(byText)).toEqual(ids(tasks));
      for (const id of a) expect(await h().store.get(id, T0 + 1)).toMatchObject({ leaseOwner: 'store', attempt: 2 });
      for (const id of b) expect(await h().store.get(id, T0 + 1)).toMatchObject({ leaseOwner: 'peer', attempt: 2 });
    });

    it("a runner's renewal racing a takeover: one of them wins, never both", async () => {
      for (let round = 0; round < 10; round++) {
        const task = run(T0);
        await create(task);
        const [renewed, taken] = await Promise.all([
          h().store.renewLeases([task.id], 'node-a', T0 + 5_000),
          adopt(T0 + 1, 10, 'node-b', T0 + 9_000, 'peer'),
        ]);
        const renewWon = (renewed ?? []).includes(task.id);
        expect([renewWon, taken.adopted.length]).toEqual(renewWon ? [true, 0] : [false, 1]);
        const holder = (await h().store.get(task.id, T0 + 1))?.leaseOwner;
        expect(holder).toBe(renewWon ? 'node-a' : 'node-b');
      }
    });

    it('released leases are taken over at once; a lease the caller does not hold is left alone', async () => {
      const now = T0 + 1_000;
      const [mine, alsoMine, theirs] = [run(now + 60_000), run(now + 60_000), run(now + 60_000, { leaseOwner: 'c' })];
      await create(mine, alsoMine, theirs);
      expect(await adopt(now)).toEqual({ adopted: [], exhausted: [] });
      await withCapability(h().store, RESUMABLE).releaseLeases([mine.id, alsoMine.id, theirs.id, 'nope'], 'node-a');
      await withCapability(h().store, RESUMABLE).releaseLeases([], 'node-a');
      const { adopted } = await adopt(now, 10, 'node-b', now + 30_000, 'peer');
      expect(ids(adopted)).toEqual(ids([mine, alsoMine]));
      expect(await h().store.get(theirs.id, now)).toEqual(theirs);
    });
  });
}
