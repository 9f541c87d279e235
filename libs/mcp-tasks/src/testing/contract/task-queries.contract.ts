import { ownerKey, parseOwnerKey, unversionedOwnerKey } from '../../owner/owner-key.js';
import { hasTaskQueries, type TaskQueries } from '../../store/capabilities/task-queries.interface.js';
import type { TaskRecord } from '../../store/task.record.js';
import type {
  TaskActivity,
  TaskActivityQuery,
  TaskCounts,
  TaskListPage,
  TaskListQuery,
} from '../../store/task-queries.interface.js';
import type { StoreHarness } from '../store-harness.interface.js';
import { NO_LIMITS, T0, TTL, elicit, newTask } from '../task-fixtures.js';
import type { TestApi } from '../test-api.js';
import { withCapability, type CapabilityPart } from './capability.js';

const QUERIES: CapabilityPart<TaskQueries> = {
  has: hasTaskQueries,
  name: 'TaskQueries (listTasks, taskCounts, taskActivity)',
  skip: '{ queries: false }',
};

/** An owner key as the library builds them, and as releases before its version tag wrote them. */
const key = (subject: string, client = 'cli') => ownerKey(subject, 'srv', client, 'https://r.example');
const unversioned = (subject: string, client = 'cli') =>
  unversionedOwnerKey(subject, 'srv', client, 'https://r.example');
const MINUTE = 60_000;

/** `TaskQueries`: the listing and aggregates (`listTasks`, `taskCounts`, `taskActivity`) the operator console reads. */
export function taskQueriesContract(h: () => StoreHarness, { describe, it, expect }: TestApi): void {
  const create = async (...tasks: TaskRecord[]) => {
    for (const task of tasks) expect(await h().store.create(task, NO_LIMITS)).toBe('created');
  };
  const list = (q: Partial<TaskListQuery>, now = T0): Promise<TaskListPage> =>
    withCapability(h().store, QUERIES).listTasks({ limit: 100, ...q }, now);
  const ids = async (q: Partial<TaskListQuery>, now = T0) => (await list(q, now)).tasks.map((t) => t.id);
  const counts = (top = 10, now = T0): Promise<TaskCounts> =>
    withCapability(h().store, QUERIES).taskCounts({ top }, now);
  const activity = (q: Partial<TaskActivityQuery> = {}, now = T0): Promise<TaskActivity> =>
    withCapability(h().store, QUERIES).taskActivity({ since: T0 - 60 * MINUTE, bucketMs: MINUTE, ...q }, now);

  describe('listTasks', () => {
    it('is declared: the store implements TaskQueries', () => {
      expect(hasTaskQueries(h().store)).toBe(true);
    });

    it('lists unexpired tasks newest first, as summaries without answers, result or error', async () => {
      const old = newTask({ createdAt: T0 - 3_000, updatedAt: T0 - 3_000 });
      const waiting = newTask({
        createdAt: T0 - 2_000,
        status: 'input_required',
        statusMessage: 'asking',
        inputRequests: { confirm: elicit('Sure?'), path: elicit('Where?') },
        inputResponses: { earlier: { secret: 'x' } },
        leaseOwner: 'node-a',
        leaseExpiresAt: T0 + 500,
      });
      const done = newTask({
        createdAt: T0 - 1_000,
        updatedAt: T0 - 10,
        status: 'completed',
        result: { content: [{ type: 'text', text: 'private' }] },
      });
      const expired = newTask({ createdAt: T0 - 500, expiresAt: T0 });
      await create(old, waiting, done, expired);
      const page = await list({});
      expect(page.total).toBe(3);
      expect(page.next).toBeUndefined();
      expect(page.tasks.map((t) => t.id)).toEqual([done.id, waiting.id, old.id]);
      expect(page.tasks[1]).toEqual({
        id: waiting.id,
        owner: 'alice',
        tool: 'demo',
        status: 'input_required',
        statusMessage: 'asking',
        createdAt: T0 - 2_000,
        updatedAt: T0,
        expiresAt: T0 + TTL,
        leaseOwner: 'node-a',
        leaseExpiresAt: T0 + 500,
        inputKeys: ['confirm', 'path'],
      });
      expect(Object.hasOwn(page.tasks[0], 'result')).toBe(false);
      expect(page.tasks[2]).toMatchObject({ leaseOwner: null, leaseExpiresAt: null, inputKeys: [] });
      expect(Object.hasOwn(page.tasks[2], 'statusMessage')).toBe(false);
      expect(await withCapability(h().peer, QUERIES).listTasks({ limit: 100 }, T0)).toEqual(page);
    });

    it('filters by status, tool, owner, subject and creation time; filters combine', async () => {
      const t = {
        a1: newTask({ owner: key('alice'), tool: 'export', createdAt: T0 - 5 * MINUTE }),
        a2: newTask({ owner: key('alice', 'web'), tool: 'deploy', status: 'failed', createdAt: T0 - 4 * MINUTE }),
        b1: newTask({ owner: key('bob'), tool: 'export', status: 'input_required', createdAt: T0 - 3 * MINUTE }),
        al: newTask({ owner: key('ali'), tool: 'export', status: 'cancelled', createdAt: T0 - 2 * MINUTE }),
        up: newTask({ owner: key('Alice'), tool: 'export', createdAt: T0 - MINUTE }),
        odd: newTask({ owner: key('a"l,i\\ce'), tool: 'export', createdAt: T0 }),
      };
      await create(...Object.values(t));
      const sorted = async (q: Partial<TaskListQuery>) => (await ids(q)).sort();
      const of = (...names: (keyof typeof t)[]) => names.map((n) => t[n].id).sort();
      expect(await sorted({ status: ['working', 'input_required'] })).toEqual(of('a1', 'b1', 'up', 'odd'));
      expect(await sorted({ status: [] })).toEqual([]);
      expect(await sorted({ tool: 'deploy' })).toEqual(of('a2'));
      expect(await sorted({ tool: 'nothing' })).toEqual([]);
      expect(await sorted({ owner: key('alice') })).toEqual(of('a1'));
      // A subject is matched whole and case-sensitively, through every client; quotes and commas are data.
      expect(await sorted({ subject: 'alice' })).toEqual(of('a1', 'a2'));
      expect(await sorted({ subject: 'ali' })).toEqual(of('al'));
      expect(await sorted({ subject: 'a"l,i\\ce' })).toEqual(of('odd'));
      expect(await sorted({ subject: 'al%' })).toEqual([]);
      expect(await sorted({ createdFrom: T0 - 3 * MINUTE })).toEqual(of('b1', 'al', 'up', 'odd'));
      expect(await sorted({ createdBefore: T0 - 3 * MINUTE })).toEqual(of('a1', 'a2'));
      expect(await sorted({ tool: 'export', status: ['working'], createdFrom: T0 - 4 * MINUTE })).toEqual(
        of('up', 'odd'),
      );
      expect((await list({ tool: 'export', subject: 'alice' })).total).toBe(1);
    });

    it("finds an owner's tasks stored under the unversioned key earlier releases wrote, no one else's", async () => {
      const t = {
        now: newTask({ owner: key('alice'), createdAt: T0 - 3 * MINUTE }),
        old: newTask({ owner: unversioned('alice'), createdAt: T0 - 2 * MINUTE }),
        web: newTask({ owner: unversioned('alice', 'web'), createdAt: T0 - MINUTE }),
        bob: newTask({ owner: unversioned('bob'), createdAt: T0 }),
        tag: newTask({ owner: unversioned('v1:alice'), createdAt: T0 }),
      };
      await create(...Object.values(t));
      const sorted = async (q: Partial<TaskListQuery>) => (await ids(q)).sort();
      const of = (...names: (keyof typeof t)[]) => names.map((n) => t[n].id).sort();
      expect(await sorted({ owner: key('alice') })).toEqual(of('now', 'old'));
      expect(await sorted({ owner: unversioned('alice') })).toEqual(of('now', 'old'));
      expect(await sorted({ owner: key('alice', 'web') })).toEqual(of('web'));
      expect(await sorted({ subject: 'alice' })).toEqual(of('now', 'old', 'web'));
      expect(await sorted({ subject: 'v1:alice' })).toEqual(of('tag'));
      expect(await sorted({ subject: 'bob' })).toEqual(of('bob'));
      expect((await list({ subject: 'alice' })).total).toBe(3);
    });

    it('pages through every match once, in order, with ties on creation time split by id', async () => {
      // 25 tasks over 5 distinct creation times: pages must cut through runs of equal times.
      const tasks = Array.from({ length: 25 }, (_, i) => newTask({ createdAt: T0 - Math.floor(i / 5) * 1_000 }));
      await create(...tasks, newTask({ tool: 'other' }));
      const seen: string[] = [];
      const sizes: number[] = [];
      let page = await list({ tool: 'demo', limit: 10 });
      for (let guard = 0; guard < 10; guard++) {
        expect(page.total).toBe(25);
        sizes.push(page.tasks.length);
        seen.push(...page.tasks.map((t) => t.id));
        if (!page.next) break;
        expect(page.next).toEqual({ createdAt: page.tasks[9].createdAt, id: page.tasks[9].id });
        page = await list({ tool: 'demo', limit: 10, after: page.next });
      }
      expect(sizes).toEqual([10, 10, 5]);
      expect(new Set(seen).size).toBe(25);
      expect(seen.sort()).toEqual(tasks.map((t) => t.id).sort());
      const all = (await list({ tool: 'demo' })).tasks;
      expect(all.map((t) => t.createdAt)).toEqual(all.map((t) => t.createdAt).sort((a, b) => b - a));
      // Pages are slices of the single ordered list.
      const paged: string[] = [];
      for (
        let p = await list({ tool: 'demo', limit: 7 });
        ;
        p = await list({ tool: 'demo', limit: 7, after: p.next })
      ) {
        paged.push(...p.tasks.map((t) => t.id));
        if (!p.next) break;
      }
      expect(paged).toEqual(all.map((t) => t.id));
    });

    it('an exact page ends without a next cursor', async () => {
      await create(...Array.from({ length: 4 }, (_, i) => newTask({ createdAt: T0 - i })));
      const first = await list({ limit: 2 });
      const second = await list({ limit: 2, after: first.next });
      expect(second.tasks).toHaveLength(2);
      expect(second.next).toBeUndefined();
    });
  });

  describe('taskCounts and taskActivity', () => {
    it('counts unexpired tasks by status, tool and owner; live is what maxTasks counts', async () => {
      await create(
        newTask({ owner: key('alice'), tool: 'export' }),
        newTask({ owner: key('alice'), tool: 'export', status: 'input_required' }),
        newTask({ owner: key('alice'), tool: 'deploy', status: 'completed' }),
        newTask({ owner: key('bob'), tool: 'export', status: 'failed' }),
        newTask({ owner: key('bob'), tool: 'export', status: 'cancelled' }),
        newTask({ owner: key('carol'), tool: 'deploy' }),
        newTask({ owner: key('zed'), tool: 'export', expiresAt: T0 }), // expired: not counted anywhere
      );
      const s = await counts();
      expect(s.byStatus).toEqual({ working: 2, input_required: 1, completed: 1, failed: 1, cancelled: 1 });
      expect(s.live).toBe(3);
      expect(s.byTool).toEqual([
        { tool: 'export', total: 4, byStatus: { working: 1, input_required: 1, failed: 1, cancelled: 1 } },
        { tool: 'deploy', total: 2, byStatus: { working: 1, completed: 1 } },
      ]);
      expect(s.byOwner).toEqual([
        { owner: key('alice'), total: 3, live: 2 },
        { owner: key('bob'), total: 2, live: 0 },
        { owner: key('carol'), total: 1, live: 1 },
      ]);
      expect(s.busiestOwners).toEqual([
        { owner: key('alice'), live: 2 },
        { owner: key('carol'), live: 1 },
      ]);
    });

    it('an empty store has zero counts and an all-zero timeline', async () => {
      const s = await counts();
      const a = await activity();
      expect(s.byStatus).toEqual({ working: 0, input_required: 0, completed: 0, failed: 0, cancelled: 0 });
      expect([s.live, s.byTool, s.byOwner, s.busiestOwners, a.durations, s.leases]).toEqual([0, [], [], [], [], []]);
      expect(a.timeline).toEqual({
        start: T0 - 60 * MINUTE,
        bucketMs: MINUTE,
        created: Array.from({ length: 61 }, () => 0),
        ended: Array.from({ length: 61 }, () => 0),
      });
    });

    it('rankings keep the top N, most first, ties by name', async () => {
      const owners = ['dave', 'bob', 'carol', 'alice'];
      for (const [i, o] of owners.entries())
        await create(...Array.from({ length: i < 2 ? 2 : 1 }, () => newTask({ owner: key(o) })));
      const s = await counts(3);
      expect(s.byOwner.map((o) => [parseOwnerKey(o.owner)?.subject, o.total])).toEqual([
        ['bob', 2],
        ['dave', 2],
        ['alice', 1],
      ]);
      expect(s.busiestOwners.map((o) => parseOwnerKey(o.owner)?.subject)).toEqual(['bob', 'dave', 'alice']);
    });

    it('buckets creations and ends per bucketMs from since, up to the bucket holding now', async () => {
      const since = T0 - 10 * MINUTE;
      const now = T0 - 30_000; // mid-bucket: 10 buckets, the last one partial
      await create(
        // created before the window
        newTask({ createdAt: since - 1, updatedAt: since + 5 * MINUTE, status: 'completed' }),
        newTask({ createdAt: since, updatedAt: since }), // first bucket, live
        newTask({ createdAt: since + MINUTE - 1, updatedAt: since + 3 * MINUTE, status: 'failed' }),
        newTask({ createdAt: since + 2 * MINUTE, updatedAt: since + 3 * MINUTE + 59_999, status: 'cancelled' }),
        newTask({ createdAt: now - 1, updatedAt: now - 1, status: 'completed' }),
        newTask({ createdAt: since - 5 * MINUTE, updatedAt: since - 1, status: 'completed' }), // ended before it
      );
      const s = await activity({ since }, now);
      expect(s.timeline.start).toBe(since);
      expect(s.timeline.created).toEqual([2, 0, 1, 0, 0, 0, 0, 0, 0, 1]);
      expect(s.timeline.ended).toEqual([0, 0, 0, 2, 0, 1, 0, 0, 0, 1]);
    });

    it('run times per tool: nearest-rank p50 and p95 of the tasks that ended in the window', async () => {
      const since = T0 - 60 * MINUTE;
      const ended = (tool: string, ms: number, endAt = T0 - 1_000) =>
        newTask({ tool, status: 'completed', createdAt: endAt - ms, updatedAt: endAt });
      // 20 run times 100..2000 in a shuffled order: p50 is the 10th (1000), p95 the 19th (1900).
      const order = [7, 3, 19, 0, 12, 5, 16, 9, 1, 14, 18, 2, 11, 6, 17, 8, 13, 4, 15, 10];
      await create(...order.map((i) => ended('export', (i + 1) * 100)));
      await create(ended('deploy', 4_200), ended('count', 10), ended('count', 30), ended('count', 20));
      await create(
        ended('export', 999_999, since - 1), // ended before the window
        newTask({ tool: 'export', createdAt: T0 - 3 * MINUTE }), // still running
        // expired
        newTask({ tool: 'export', status: 'failed', createdAt: T0 - 7_000, updatedAt: T0 - 2_000, expiresAt: T0 }),
      );
      const s = await activity({ since });
      expect(s.durations).toEqual([
        { tool: 'count', count: 3, p50: 20, p95: 30 },
        { tool: 'deploy', count: 1, p50: 4_200, p95: 4_200 },
        { tool: 'export', count: 20, p50: 1_000, p95: 1_900 },
      ]);
    });

    it('nearest rank holds for counts where p·n is a whole number, and for tiny ones', async () => {
      const ended = (tool: string, ms: number) =>
        newTask({ tool, status: 'failed', createdAt: T0 - 10_000 - ms, updatedAt: T0 - 10_000 });
      const runs = (n: number) => Array.from({ length: n }, (_, i) => (n - i) * 10); // descending on purpose
      await create(...runs(100).map((ms) => ended('n100', ms)), ...runs(40).map((ms) => ended('n40', ms)));
      await create(...runs(2).map((ms) => ended('n2', ms)), ...runs(21).map((ms) => ended('n21', ms)));
      expect((await activity()).durations).toEqual([
        { tool: 'n100', count: 100, p50: 500, p95: 950 },
        { tool: 'n2', count: 2, p50: 10, p95: 20 },
        { tool: 'n21', count: 21, p50: 110, p95: 200 },
        { tool: 'n40', count: 40, p50: 200, p95: 380 },
      ]);
    });

    it('instances holding leases on live tasks, with their latest lease expiry', async () => {
      await create(
        newTask({ leaseOwner: 'node-a', leaseExpiresAt: T0 + 100 }),
        newTask({ leaseOwner: 'node-a', leaseExpiresAt: T0 + 300, status: 'input_required' }),
        newTask({ leaseOwner: 'node-b', leaseExpiresAt: T0 - 50 }), // lapsed, not yet reclaimed: still shown
        newTask({ leaseOwner: 'node-c', leaseExpiresAt: T0 + 900, status: 'completed' }), // ended: holds nothing
        newTask({ leaseOwner: 'node-d', leaseExpiresAt: T0 + 900, expiresAt: T0 }), // expired
        newTask(), // never leased
      );
      expect((await counts()).leases).toEqual([
        { instance: 'node-a', tasks: 2, until: T0 + 300 },
        { instance: 'node-b', tasks: 1, until: T0 - 50 },
      ]);
    });
  });
}
