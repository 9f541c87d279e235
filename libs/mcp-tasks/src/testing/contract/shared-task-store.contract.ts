import { isSharedTaskStore } from '../../store/capabilities/shared-task-store.interface.js';
import type { StoreHarness } from '../store-harness.interface.js';
import { LOST, NO_LIMITS, T0, TTL, newTask } from '../task-fixtures.js';
import type { TestApi } from '../test-api.js';

/**
 * `SharedTaskStore`: the store declares that other processes share its tasks, and two instances over the same
 * data (`store` and `peer`, as two processes would open it) see each other's writes at once, whichever wrote.
 */
export function sharedTaskStoreContract(h: () => StoreHarness, { describe, it, expect }: TestApi): void {
  describe('shared across processes', () => {
    it('is declared (sharedAcrossProcesses: true), and the peer is a second instance, not the same object', () => {
      expect(isSharedTaskStore(h().store)).toBe(true);
      expect(h().peer === h().store).toBe(false);
    });

    it('each instance reads, changes, renews, reclaims and sweeps what the other wrote, at once', async () => {
      const { store, peer } = h();
      const [running, lapsed, expiring] = [
        newTask({ leaseOwner: 'node-a', leaseExpiresAt: T0 + 100 }),
        newTask({ leaseOwner: 'node-a', leaseExpiresAt: T0 + 100 }),
        newTask({ expiresAt: T0 + 10 }),
      ];
      for (const task of [running, lapsed, expiring]) expect(await store.create(task, NO_LIMITS)).toBe('created');
      expect(await peer.get(running.id, T0)).toEqual(running);
      await peer.update(running.id, { kind: 'progress', statusMessage: 'half' }, T0 + 1);
      expect(await store.get(running.id, T0 + 1)).toMatchObject({ statusMessage: 'half' });
      await store.renewLeases([running.id], 'node-a', T0 + TTL);
      expect(await peer.reclaimExpiredLeases(T0 + 200, 10, LOST)).toEqual([lapsed.id]);
      expect(await store.get(lapsed.id, T0 + 200)).toMatchObject({ status: 'failed', error: LOST });
      expect(await peer.sweep(T0 + 200, 10)).toBe(1);
      expect(await store.get(expiring.id, T0)).toBeUndefined();
      await store.update(running.id, { kind: 'finish', status: 'completed', result: { content: [] } }, T0 + 300);
      expect(await peer.get(running.id, T0 + 300)).toMatchObject({ status: 'completed' });
    });

    it('postgresConnection, where the store has it, gives settings (a URL or an object) or says why not', async () => {
      const store = h().store;
      if (!isSharedTaskStore(store) || !store.postgresConnection) return;
      const outcome = await store.postgresConnection().then(
        (settings) => (typeof settings === 'string' || typeof settings === 'object' ? 'settings' : 'other'),
        (err: unknown) => (err instanceof Error && err.message.length > 0 ? 'why' : 'other'),
      );
      expect(['settings', 'why'].includes(outcome)).toBe(true);
    });
  });
}
