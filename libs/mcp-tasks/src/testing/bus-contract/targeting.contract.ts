import { sessionTopic } from '../../events/task-event.topics.js';
import type { TestApi } from '../test-api.js';
import { type BusTrio, followed, listen, newId, sleep, until, untilHeard } from './bus-probes.js';

/**
 * A bus with `follow` sends a task's events only to the instances following one of its topics (counted follows),
 * a session's status changes to its followers, each once. Skipped for a bus without `follow` (it relays all).
 */
export function targetingContract(trio: () => BusTrio, settle: number, { describe, it, expect }: TestApi): void {
  describe('follow', () => {
    it('an instance not following a task hears nothing of it; one following it does', async () => {
      const { a, b, c } = trio();
      if (!b.follow) return;
      const task = newId();
      const unfollow = await followed(b, a, task);
      const [onB, onC] = [listen(b), listen(c)];
      await a.publish({ type: 'status-changed', taskId: task, status: 'completed' });
      await until('the follower to hear it', () => onB.of(task).length > 0);
      await sleep(settle);
      expect(onC.of(task)).toHaveLength(0);
      expect(onB.of(task)).toEqual([{ type: 'status-changed', taskId: task, status: 'completed' }]);
      for (const h of [onB, onC]) h.stop();
      unfollow();
    });

    it('counts follows per topic: the task is heard until the last unfollow', async () => {
      const { a, b } = trio();
      if (!b.follow) return;
      const task = newId();
      const first = await followed(b, a, task);
      const second = b.follow(task);
      first();
      first(); // a second call of the same unfollow does not count again
      const heard = listen(b);
      await a.publish({ type: 'cancel-requested', taskId: task });
      await until('the instance still following to hear it', () => heard.of(task).length > 0);
      second();
      await sleep(settle);
      await a.publish({ type: 'status-changed', taskId: task, status: 'cancelled' });
      await sleep(settle);
      expect(heard.of(task)).toEqual([{ type: 'cancel-requested', taskId: task }]);
      heard.stop();
    });

    it('sends a session’s status changes to its followers, once to one following the task too', async () => {
      const { a, b, c } = trio();
      if (!b.follow || !c.follow) return;
      const session = newId();
      const task = newId();
      const probe = { type: 'status-changed', taskId: newId(), status: 'working', session } as const;
      const bySession = c.follow(sessionTopic(session));
      await untilHeard(a, c, probe);
      const both = [b.follow(sessionTopic(session)), await followed(b, a, task)];
      await untilHeard(a, b, probe);
      const [onB, onC] = [listen(b), listen(c)];
      const event = { type: 'status-changed', taskId: task, status: 'input_required', session } as const;
      await a.publish(event);
      await until('both instances to hear it', () => onB.of(task).length > 0 && onC.of(task).length > 0);
      await sleep(settle);
      expect(onB.of(task)).toEqual([event]);
      expect(onC.of(task)).toEqual([event]);
      for (const h of [onB, onC]) h.stop();
      for (const u of [bySession, ...both]) u();
    });
  });
}
