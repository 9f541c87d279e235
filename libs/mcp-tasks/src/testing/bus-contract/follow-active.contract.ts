import type { TestApi } from '../test-api.js';
import { type BusTrio, listen, newId, sleep, until } from './bus-probes.js';

/**
 * A bus whose `follow` takes `onActive` calls it once the follow is in effect: an event another instance publishes
 * from then on is heard, with no retry. Once it is in effect, and again after each re-join (`rejoinContract`); never
 * during the call, never after the unfollow. Skipped for a bus without `follow`, or whose `follow` takes the topic
 * alone.
 */
export function followActiveContract(trio: () => BusTrio, settle: number, { describe, it, expect }: TestApi): void {
  describe('follow: onActive', () => {
    it('comes once the follow is in effect: an event published right after it is heard', async () => {
      const { a, b } = trio();
      if (!b.follow || b.follow.length < 2) return;
      const task = newId();
      let active = 0;
      const first = b.follow(task, () => active++);
      expect(active).toBe(0);
      await until('the follow to be in effect', () => active === 1);
      const heard = listen(b);
      await a.publish({ type: 'cancel-requested', taskId: task });
      await until('the follower to hear the event published once', () => heard.of(task).length > 0);
      // A second follow of a topic already followed is told too.
      const second = b.follow(task, () => active++);
      await until('the second follow to be in effect', () => active === 2);
      await sleep(settle);
      expect(active).toBe(2);
      expect(heard.of(task)).toEqual([{ type: 'cancel-requested', taskId: task }]);
      heard.stop();
      first();
      second();
    });

    it('is not called once the follow ended', async () => {
      const { b } = trio();
      if (!b.follow || b.follow.length < 2) return;
      let late = 0;
      const unfollow = b.follow(newId(), () => late++);
      unfollow();
      await sleep(settle);
      expect(late).toBe(0);
    });
  });
}
