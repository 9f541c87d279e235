import type { TaskEvent } from '../../events/task-event-bus.interface.js';
import type { TestApi } from '../test-api.js';
import { type BusTrio, followed, listen, newId, sleep, until } from './bus-probes.js';

/** Events without a topic reach everyone; a client's answer arrives whole; one publisher's events stay in order. */
export function payloadContract(trio: () => BusTrio, settle: number, { describe, it, expect }: TestApi): void {
  describe('payloads', () => {
    it('sends an event without topics (a feature change) to every instance, following nothing', async () => {
      const { a, b, c } = trio();
      const uri = `file:///${newId()}`;
      const heard = [listen(b), listen(c)];
      const change: TaskEvent = { type: 'feature-changed', taskId: '', change: 'resource', uri };
      const mine = (e: TaskEvent) => e.type === 'feature-changed' && e.uri === uri;
      await a.publish(change);
      await until('every instance to hear the change', () => heard.every((h) => h.events.some(mine)));
      await sleep(settle);
      for (const h of heard) expect(h.events.filter(mine)).toEqual([change]);
      for (const h of heard) h.stop();
    });

    it('carries a question’s answer whole (and its receipt), and its publish resolves once it is sent', async () => {
      const { a, b } = trio();
      const run = newId();
      const unfollow = await followed(b, a, run);
      const heard = listen(b);
      const result = {
        action: 'accept',
        content: { text: 'ünïcødé ✓ "quoted" \\ back\nslash', list: [1, 2.5, null, true], nested: { deep: [{}] } },
        _meta: { big: 'x'.repeat(4_000) },
      };
      const answers: TaskEvent[] = [
        { type: 'question-answered', taskId: run, question: 'q-1', answer: { result } },
        { type: 'question-answered', taskId: run, question: '2', answer: { error: { code: -32603, message: 'no' } } },
        { type: 'question-answered', taskId: run, question: '3', answer: { result: {} }, replyTo: 'answers:x' },
        { type: 'question-received', taskId: run, question: '3' },
      ];
      for (const answer of answers) await a.publish(answer);
      await until('the answers and the receipt', () => heard.of(run).length === answers.length);
      expect(heard.of(run)).toEqual(answers);
      heard.stop();
      unfollow();
    });

    it('keeps one publisher’s events about a task in the order they were published', async () => {
      const { a, b } = trio();
      const task = newId();
      const unfollow = await followed(b, a, task);
      const heard = listen(b);
      const sent: TaskEvent[] = [];
      for (let i = 0; i < 60; i++) {
        const event: TaskEvent =
          i % 3 === 0
            ? { type: 'cancel-requested', taskId: task }
            : { type: 'status-changed', taskId: task, status: i % 3 === 1 ? 'working' : 'input_required' };
        sent.push(event);
        void a.publish(event);
      }
      await until('all 60 events', () => heard.of(task).length >= sent.length);
      await sleep(settle);
      expect(heard.of(task)).toEqual(sent);
      heard.stop();
      unfollow();
    });
  });
}
