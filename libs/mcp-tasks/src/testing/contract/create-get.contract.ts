import type { StoreHarness } from '../store-harness.interface.js';
import { NO_LIMITS, T0, TTL, newTask } from '../task-fixtures.js';
import type { TestApi } from '../test-api.js';

/** Create, read back, expiry, and the caps checked on create. */
export function createGetContract(h: () => StoreHarness, { describe, it, expect }: TestApi): void {
  describe('create and get', () => {
    it('reads back exactly what was created, JSON fields and lease included', async () => {
      const task = newTask({
        statusMessage: 'starting',
        inputResponses: { seed: { nested: [1, 'two', null, { deep: true }] } },
        requiredScopes: ['tasks:read', 'files:write'],
        leaseOwner: 'node-a',
        leaseExpiresAt: T0 + 5_000,
      });
      expect(await h().store.create(task, NO_LIMITS)).toBe('created');
      expect(await h().store.get(task.id, T0)).toEqual(task);
      expect(await h().peer.get(task.id, T0)).toEqual(task);
    });

    it('reads back text and JSON as written: escapes, any script, key order, numbers, a JSON string', async () => {
      const text = 'say "hi" \\ back\nslash\t\u0001 \u2028 é 漢字 𝄞 \ud83d\ude00';
      const task = newTask({
        statusMessage: text,
        status: 'completed',
        result: {
          content: [{ type: 'text', text }],
          structuredContent: { z: 1, a: [1.5, 1e21, 2 ** 53, -7, 0.1, true, null], '': text, [text]: {} },
        },
        inputResponses: { b: 'second', a: 'first' },
        checkpoint: text,
        attempt: 3,
        expiresAt: null,
      });
      await h().store.create(task, NO_LIMITS);
      for (const read of [await h().store.get(task.id, T0), await h().peer.get(task.id, T0)]) {
        expect(read).toEqual(task);
        // What a client is sent: the same text, key order included.
        expect(JSON.stringify(read?.result)).toBe(JSON.stringify(task.result));
        expect(JSON.stringify(read?.inputResponses)).toBe(JSON.stringify(task.inputResponses));
      }
    });

    it('omits absent optional fields rather than inventing nulls', async () => {
      const task = newTask();
      await h().store.create(task, NO_LIMITS);
      const read = await h().store.get(task.id, T0);
      // toEqual would pass `null` for a missing key; callers test `task.error === undefined`.
      expect(Object.keys(read ?? {}).sort()).toEqual(Object.keys(task).sort());
    });

    it('returns undefined for an unknown id', async () => {
      expect(await h().store.get('no-such-task', T0)).toBeUndefined();
    });

    it('hides a task from the moment it expires', async () => {
      const task = newTask();
      await h().store.create(task, NO_LIMITS);
      expect(await h().store.get(task.id, T0 + TTL - 1)).toBeDefined();
      expect(await h().store.get(task.id, T0 + TTL)).toBeUndefined();
      expect(await h().store.update(task.id, { kind: 'progress', statusMessage: 'late' }, T0 + TTL)).toBeUndefined();
    });

    it('keeps a task without expiry forever', async () => {
      const task = newTask({ expiresAt: null });
      await h().store.create(task, NO_LIMITS);
      expect((await h().store.get(task.id, T0 + 10 * 365 * 86_400_000))?.id).toBe(task.id);
    });
  });

  describe('caps', () => {
    const perOwner = { maxPerOwner: 2, maxTotal: Infinity };

    it('refuses an owner over its cap, while other owners still get in', async () => {
      expect(await h().store.create(newTask(), perOwner)).toBe('created');
      expect(await h().store.create(newTask(), perOwner)).toBe('created');
      expect(await h().store.create(newTask(), perOwner)).toBe('owner-limit');
      expect(await h().store.create(newTask({ owner: 'bob' }), perOwner)).toBe('created');
      expect(await h().countLive('alice', T0)).toBe(2);
    });

    it('frees a slot when a task ends', async () => {
      const first = newTask();
      await h().store.create(first, perOwner);
      await h().store.create(newTask(), perOwner);
      await h().store.update(first.id, { kind: 'finish', status: 'cancelled' }, T0 + 1);
      expect(await h().store.create(newTask({ createdAt: T0 + 2 }), perOwner)).toBe('created');
      expect(await h().store.create(newTask({ createdAt: T0 + 2 }), perOwner)).toBe('owner-limit');
    });

    it('frees a slot when a task expires, before any sweep', async () => {
      await h().store.create(newTask(), perOwner);
      await h().store.create(newTask({ expiresAt: null }), perOwner);
      const later = { createdAt: T0 + TTL, expiresAt: T0 + 2 * TTL };
      expect(await h().store.create(newTask(later), perOwner)).toBe('created');
      expect(await h().store.create(newTask(later), perOwner)).toBe('owner-limit');
    });

    it('refuses everyone at the total cap, reporting the owner cap first', async () => {
      const limits = { maxPerOwner: 2, maxTotal: 3 };
      expect(await h().store.create(newTask({ owner: 'a' }), limits)).toBe('created');
      expect(await h().store.create(newTask({ owner: 'a' }), limits)).toBe('created');
      expect(await h().store.create(newTask({ owner: 'b' }), limits)).toBe('created');
      expect(await h().store.create(newTask({ owner: 'c' }), limits)).toBe('server-limit');
      expect(await h().store.create(newTask({ owner: 'a' }), limits)).toBe('owner-limit');
      expect(await h().countAll()).toBe(3);
    });
  });
}
