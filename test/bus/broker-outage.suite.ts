import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { TaskEvent, TaskEventBus } from '../../libs/mcp-tasks/src/events/task-event-bus.interface.js';
import type { ThrowawayServer } from '../support/throwaway-server.js';
import { until } from '../support/until.js';

type Bus = TaskEventBus & { onModuleInit(): Promise<void>; onApplicationShutdown(): Promise<void> };

/**
 * One bus through a broker restart: while it is down a question's answer is refused (never taken and lost) and
 * `health()` says disconnected; once it is back both instances reconnect on their own and the topic followed before
 * the outage is heard again (re-subscribed), with the broadcast channel.
 */
export function brokerOutageSuite(
  name: string,
  start: () => Promise<ThrowawayServer & { url: string }>,
  make: (url: string) => Bus,
): void {
  describe(`${name}: a broker restart`, () => {
    let broker: ThrowawayServer & { url: string };
    let a: Bus;
    let b: Bus;
    beforeAll(async () => {
      broker = await start();
      [a, b] = [make(broker.url), make(broker.url)];
      for (const bus of [a, b]) await bus.onModuleInit();
      await until('both buses to connect', () => !!a.health?.().connected && !!b.health?.().connected, 20_000);
    }, 60_000);
    afterAll(async () => {
      for (const bus of [a, b]) await bus?.onApplicationShutdown();
      await broker?.stop();
    });

    it.each([false, true])(
      'refuses answers while down, then relays followed topics again (kill: %s)',
      async (kill) => {
        const run = `run-${kill}`;
        const unfollow = b.follow!(run);
        const heard: TaskEvent[] = [];
        const off = b.subscribe((e) => heard.push(e));
        const answer = (n: number): TaskEvent => ({
          type: 'question-answered',
          taskId: run,
          question: String(n),
          answer: { result: { n } },
        });
        await until('the follow to take effect', () => a.publish(answer(0)).then(() => heard.length > 0), 10_000, 200);

        const restarted = broker.restart({ downMs: 2_500, kill });
        await until('a to see the broker gone', () => a.health?.().connected === false, 10_000);
        await expect(a.publish(answer(1))).rejects.toThrow();
        expect(b.health?.()).toEqual({ connected: false });
        await restarted;

        await until('both to reconnect', () => !!a.health?.().connected && !!b.health?.().connected, 30_000);
        const before = heard.length;
        await until(
          'the followed topic to be heard again',
          () => a.publish(answer(2)).then(() => heard.length > before),
          15_000,
          200,
        );
        expect(heard.at(-1)).toEqual(answer(2));
        const change: TaskEvent = { type: 'feature-changed', taskId: '', change: 'prompts' };
        const broadcast = () => heard.some((e) => e.type === 'feature-changed');
        await until('the broadcast to be heard again', () => a.publish(change).then(broadcast), 15_000, 200);
        off();
        unfollow();
      },
      90_000,
    );
  });
}
