import { ownerKey, unversionedOwnerKey } from '../../owner/owner-key.js';
import { hasTaskListing, type TaskListing } from '../../store/capabilities/task-listing.interface.js';
import type { OwnerTasksQuery } from '../../store/task-queries.interface.js';
import type { TaskRecord } from '../../store/task.record.js';
import type { StoreHarness } from '../store-harness.interface.js';
import { NO_LIMITS, T0, TTL, newTask } from '../task-fixtures.js';
import type { TestApi } from '../test-api.js';
import { withCapability, type CapabilityPart } from './capability.js';

const LISTING: CapabilityPart<TaskListing> = {
  has: hasTaskListing,
  name: 'TaskListing (listByOwner)',
  skip: '{ ownerListing: false }',
};

/** `TaskListing` (2025-11-25 `tasks/list`): one owner's whole tasks, a page at a time. */
export function taskListingContract(h: () => StoreHarness, { describe, it, expect }: TestApi): void {
  const create = async (...tasks: TaskRecord[]) => {
    for (const task of tasks) expect(await h().store.create(task, NO_LIMITS)).toBe('created');
  };
  const ids = async (q: Partial<OwnerTasksQuery>, now = T0) =>
    (await withCapability(h().store, LISTING).listByOwner({ owner: 'alice', limit: 100, ...q }, now)).map((t) => t.id);

  describe('listByOwner', () => {
    it('is declared: the store implements TaskListing', () => {
      expect(hasTaskListing(h().store)).toBe(true);
    });

    it("lists the owner's unexpired tasks whole, newest first, in every status", async () => {
      const old = newTask({ createdAt: T0 - 3_000 });
      const done = newTask({
        createdAt: T0 - 2_000,
        status: 'completed',
        result: { content: [{ type: 'text', text: 'r' }], isError: true },
        generation: '2025-11-25',
        session: 's1',
      });
      const failed = newTask({ createdAt: T0 - 1_000, status: 'failed', error: { code: -1, message: 'no' } });
      const expired = newTask({ createdAt: T0 - 500, expiresAt: T0 });
      const bobs = newTask({ createdAt: T0 - 100, owner: 'bob' });
      await create(old, done, failed, expired, bobs);
      const page = await withCapability(h().store, LISTING).listByOwner({ owner: 'alice', limit: 10 }, T0);
      expect(page).toEqual([failed, done, old]);
      expect(await ids({ owner: 'bob' })).toEqual([bobs.id]);
      expect(await ids({ owner: 'carol' })).toEqual([]);
    });

    it("lists with the owner's tasks those stored under the unversioned key earlier releases wrote", async () => {
      const parts = ['alice', 'srv', 'cli', 'https://r.example'] as const;
      const now = newTask({ owner: ownerKey(...parts), createdAt: T0 - 2 });
      const old = newTask({
        owner: unversionedOwnerKey(...parts),
        createdAt: T0 - 1,
        generation: '2025-11-25',
        session: 's1',
      });
      const other = newTask({ owner: unversionedOwnerKey('alice', 'srv', 'web', 'https://r.example'), createdAt: T0 });
      await create(now, old, other);
      expect(await ids({ owner: ownerKey(...parts) })).toEqual([old.id, now.id]);
      expect(await ids({ owner: ownerKey(...parts), session: null })).toEqual([now.id]);
      expect(await ids({ owner: ownerKey(...parts), limit: 1, after: { createdAt: T0 - 1, id: old.id } })).toEqual([
        now.id,
      ]);
    });

    it('session: undefined lists every session, null only unbound tasks, an id unbound ones and its own', async () => {
      const unbound = newTask({ createdAt: T0 - 3 });
      const s1 = newTask({ createdAt: T0 - 2, generation: '2025-11-25', session: 's1' });
      const s2 = newTask({ createdAt: T0 - 1, generation: '2025-11-25', session: 's2' });
      await create(unbound, s1, s2);
      expect(await ids({})).toEqual([s2.id, s1.id, unbound.id]);
      expect(await ids({ session: null })).toEqual([unbound.id]);
      expect(await ids({ session: 's1' })).toEqual([s1.id, unbound.id]);
      expect(await ids({ session: 'nobody' })).toEqual([unbound.id]);
    });

    it('pages by (createdAt, id) without skipping or repeating, ties included', async () => {
      const tasks = ['a', 'b', 'c', 'd', 'e'].map((id, i) =>
        newTask({ id: `t-${id}`, createdAt: T0 - (i < 3 ? 10 : i) }),
      );
      await create(...tasks);
      // Newest first: t-c, t-b, t-a share createdAt T0-10 and come after t-d (T0-3), t-e (T0-4), by id descending.
      const all = await ids({});
      expect(all).toEqual(['t-d', 't-e', 't-c', 't-b', 't-a']);
      const first = await ids({ limit: 3 });
      expect(first).toEqual(['t-d', 't-e', 't-c']);
      const after = { createdAt: T0 - 10, id: 't-c' };
      expect(await ids({ limit: 3, after })).toEqual(['t-b', 't-a']);
      expect(await ids({ limit: 1, after: { createdAt: T0 - 10, id: 't-b' } })).toEqual(['t-a']);
      expect(await ids({ after: { createdAt: T0 - 10, id: 't-a' } })).toEqual([]);
    });

    it('hides tasks from the moment they expire', async () => {
      const task = newTask();
      await create(task);
      expect(await ids({}, T0 + TTL - 1)).toEqual([task.id]);
      expect(await ids({}, T0 + TTL)).toEqual([]);
    });
  });
}
