import type { TaskChange } from '../../store/task.record.js';
import type { StoreHarness } from '../store-harness.interface.js';
import { NO_LIMITS, T0, elicit, newTask } from '../task-fixtures.js';
import type { TestApi } from '../test-api.js';

/** `update` semantics: each change kind, partial answers, and the finality of terminal states. */
export function changesContract(h: () => StoreHarness, { describe, it, expect }: TestApi): void {
  const started = async (over = {}) => {
    const task = newTask(over);
    await h().store.create(task, NO_LIMITS);
    return task;
  };

  describe('update', () => {
    it('progress sets the message and the update time, nothing else', async () => {
      const task = await started();
      const out = await h().store.update(task.id, { kind: 'progress', statusMessage: 'half way' }, T0 + 5);
      expect(out).toEqual({ changed: true, task: { ...task, statusMessage: 'half way', updatedAt: T0 + 5 } });
      expect(await h().store.get(task.id, T0 + 5)).toEqual(out?.task);
    });

    it('ask moves to input_required and adds requests; asking an answered key again is a no-op', async () => {
      const task = await started();
      const asked = await h().store.update(task.id, { kind: 'ask', requests: { a: elicit('A?') } }, T0 + 1);
      expect(asked?.task).toMatchObject({ status: 'input_required', inputRequests: { a: elicit('A?') } });
      await h().store.update(task.id, { kind: 'answer', responses: { a: 'yes' } }, T0 + 2);
      const again = await h().store.update(task.id, { kind: 'ask', requests: { a: elicit('A again?') } }, T0 + 3);
      expect(again).toMatchObject({
        changed: false,
        task: { status: 'working', inputRequests: {}, inputResponses: { a: 'yes' } },
      });
    });

    it('a partial answer keeps the task waiting for the rest', async () => {
      const task = await started();
      await h().store.update(task.id, { kind: 'ask', requests: { a: elicit('A?'), b: elicit('B?') } }, T0 + 1);
      const partial = await h().store.update(task.id, { kind: 'answer', responses: { a: 1 } }, T0 + 2);
      expect(partial?.task).toMatchObject({
        status: 'input_required',
        inputRequests: { b: elicit('B?') },
        inputResponses: { a: 1 },
      });
      const rest = await h().store.update(task.id, { kind: 'answer', responses: { b: { ok: true } } }, T0 + 3);
      expect(rest?.task).toMatchObject({
        status: 'working',
        inputRequests: {},
        inputResponses: { a: 1, b: { ok: true } },
      });
      expect(await h().store.get(task.id, T0 + 3)).toEqual(rest?.task);
    });

    it('ignores answers to keys that are not outstanding', async () => {
      const task = await started();
      await h().store.update(task.id, { kind: 'ask', requests: { a: elicit('A?') } }, T0 + 1);
      const stray = await h().store.update(task.id, { kind: 'answer', responses: { zzz: 'nobody asked' } }, T0 + 2);
      expect(stray).toMatchObject({ changed: false, task: { status: 'input_required', inputResponses: {} } });
      const mixed = await h().store.update(
        task.id,
        { kind: 'answer', responses: { a: 'A', zzz: 'still not' } },
        T0 + 3,
      );
      expect(mixed?.task.inputResponses).toEqual({ a: 'A' });
      expect((await h().store.get(task.id, T0 + 3))?.inputResponses).toEqual({ a: 'A' });
    });

    it('finish stores the result and clears outstanding requests', async () => {
      const task = await started();
      await h().store.update(task.id, { kind: 'ask', requests: { a: elicit('A?') } }, T0 + 1);
      const result = { content: [{ type: 'text', text: 'done' }], structuredContent: { n: 42 } };
      await h().store.update(task.id, { kind: 'finish', status: 'completed', result }, T0 + 2);
      expect(await h().store.get(task.id, T0 + 2)).toMatchObject({
        status: 'completed',
        result,
        inputRequests: {},
        updatedAt: T0 + 2,
      });
    });

    it('a terminal state is final: a late completion never overwrites cancelled', async () => {
      const task = await started();
      const cancelled = await h().store.update(task.id, { kind: 'finish', status: 'cancelled' }, T0 + 1);
      const late: TaskChange[] = [
        { kind: 'finish', status: 'completed', result: { content: [{ type: 'text', text: 'too late' }] } },
        { kind: 'finish', status: 'failed', error: { code: 1, message: 'boom' } },
        { kind: 'progress', statusMessage: 'still going' },
        { kind: 'ask', requests: { q: elicit('Q?') } },
        { kind: 'answer', responses: { q: 1 } },
      ];
      for (const change of late) {
        expect(await h().peer.update(task.id, change, T0 + 2)).toEqual({ changed: false, task: cancelled?.task });
      }
      const final = await h().store.get(task.id, T0 + 3);
      expect(final).toMatchObject({ status: 'cancelled', updatedAt: T0 + 1 });
      expect(final?.result).toBeUndefined();
    });

    it('returns undefined for an unknown task', async () => {
      expect(await h().store.update('no-such-task', { kind: 'progress', statusMessage: 'x' }, T0)).toBeUndefined();
    });
  });
}
