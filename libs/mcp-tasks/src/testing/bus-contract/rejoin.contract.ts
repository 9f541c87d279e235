import type { TestApi } from '../test-api.js';
import { type BusTrio, listen, newId, sleep, until } from './bus-probes.js';

/** How long a cut instance may take to connect and follow again (a client's reconnect backoff, a loaded machine). */
const BACK_WITHIN = 30_000;

/**
 * An instance whose link to the broker was cut misses what others publish meanwhile; once it follows again, each live
 * follow's `onActive` comes again (once), so its follower re-reads the store — not that of a follow ended meanwhile —
 * and events are heard again with no retry. Skipped without the harness's `cut`, or for a bus whose `follow` takes
 * the topic alone.
 */
export function rejoinContract(trio: () => BusTrio, settle: number, { describe, it, expect }: TestApi): void {
  describe('follow: after a re-join', () => {
    it(
      'calls onActive again once the follow is back in effect after the link was cut',
      async () => {
        const { a, b, cut } = trio();
        if (!cut || !b.follow || b.follow.length < 2) return;
        const [task, other] = [newId(), newId()];
        let active = 0;
        let ended = 0;
        const unfollow = b.follow(task, () => active++);
        const gone = b.follow(other, () => ended++);
        await until('both follows to be in effect', () => active === 1 && ended === 1);
        const heard = listen(b);

        const restore = await cut(b);
        if (b.health) await until('the cut instance to say it is disconnected', () => !b.health?.().connected);
        gone();
        // Published during the outage: the broker takes it, the cut instance cannot hear it.
        await a.publish({ type: 'cancel-requested', taskId: task });
        await sleep(settle);
        expect(heard.of(task)).toEqual([]);
        expect(active).toBe(1);
        await restore();

        await until('onActive to come again once the follow is back', () => active === 2, BACK_WITHIN);
        await a.publish({ type: 'status-changed', taskId: task, status: 'cancelled' });
        await until('the event published after it to be heard', () => heard.of(task).length > 0);
        await sleep(settle);
        expect(heard.of(task)).toEqual([{ type: 'status-changed', taskId: task, status: 'cancelled' }]);
        expect(active).toBe(2);
        expect(ended).toBe(1);
        heard.stop();
        unfollow();
      },
      2 * BACK_WITHIN,
    );
  });
}
