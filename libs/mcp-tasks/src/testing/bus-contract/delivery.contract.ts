import type { TestApi } from '../test-api.js';
import { type BusTrio, followed, listen, newId, sleep, until } from './bus-probes.js';

/** Delivery to every instance's subscribers, at once on the publishing one, once each; unsubscribe; health. */
export function deliveryContract(trio: () => BusTrio, settle: number, { describe, it, expect }: TestApi): void {
  describe('delivery', () => {
    it('reaches the subscribers of every following instance, and the publisher’s own at once and once', async () => {
      const { a, b, c } = trio();
      const task = newId();
      const unfollow = [await followed(b, a, task), await followed(c, a, task)];
      const heard = [listen(a), listen(a), listen(b), listen(c)];
      await a.publish({ type: 'cancel-requested', taskId: task });
      // The publishing instance's subscribers have it when publish resolves, without a round trip to the broker.
      expect(heard[0].of(task)).toEqual([{ type: 'cancel-requested', taskId: task }]);
      await until('every instance to hear the cancel', () => heard.every((h) => h.of(task).length > 0));
      await sleep(settle);
      // Echoes of its own publish are dropped: one copy per subscriber, on every instance.
      for (const h of heard) expect(h.of(task)).toEqual([{ type: 'cancel-requested', taskId: task }]);
      for (const h of heard) h.stop();
      for (const u of unfollow) u();
    });

    it('stops delivering to a handler once unsubscribed, and keeps delivering to the others', async () => {
      const { a, b } = trio();
      const task = newId();
      const unfollow = await followed(b, a, task);
      const gone = listen(b);
      const kept = listen(b);
      const local = listen(a);
      gone.stop();
      local.stop();
      await a.publish({ type: 'cancel-requested', taskId: task });
      await until('the remaining handler to hear it', () => kept.of(task).length > 0);
      await sleep(settle);
      expect(gone.of(task)).toHaveLength(0);
      expect(local.of(task)).toHaveLength(0);
      expect(kept.of(task)).toHaveLength(1);
      kept.stop();
      unfollow();
    });

    it('says it is connected when it relays between instances', async () => {
      for (const bus of Object.values(trio())) {
        const health = bus.health?.();
        if (health) expect(health).toEqual({ connected: true });
      }
    });
  });
}
