import type { TaskChange } from '../../store/task.record.js';
import type { StoreHarness } from '../store-harness.interface.js';
import { NO_LIMITS, T0, elicit, newTask } from '../task-fixtures.js';
import type { TestApi } from '../test-api.js';

/**
 * Fencing: a run's changes carry its attempt and apply only while the task is at it, so a run whose task another
 * instance took over cannot change it; changes from clients (answers, cancel) carry none and always apply.
 */
export function fencingContract(h: () => StoreHarness, { describe, it, expect }: TestApi): void {
  const started = async (over = {}) => {
    const task = newTask(over);
    await h().store.create(task, NO_LIMITS);
    return task;
  };
  /** Every change a run makes, at `attempt`. */
  const runChanges = (attempt: number): TaskChange[] => [
    { kind: 'progress', statusMessage: 'stale', attempt },
    { kind: 'ask', requests: { q: elicit('Q?') }, attempt },
    { kind: 'checkpoint', value: { step: 9 }, attempt },
    { kind: 'finish', status: 'completed', result: { content: [] }, attempt },
    { kind: 'finish', status: 'failed', error: { code: 1, message: 'boom' }, attempt },
  ];

  describe('fencing', () => {
    it('reads back the attempt a task was created at', async () => {
      const task = await started({ attempt: 3 });
      expect(await h().store.get(task.id, T0)).toEqual(task);
      expect(await h().peer.get(task.id, T0)).toEqual(task);
    });

    it('a change from another attempt changes nothing and says so; one at the current attempt applies', async () => {
      const task = await started({ attempt: 2 });
      for (const change of [...runChanges(1), ...runChanges(3)])
        expect(await h().peer.update(task.id, change, T0 + 1)).toEqual({ changed: false, task });
      expect(await h().store.get(task.id, T0 + 1)).toEqual(task);
      const current = await h().store.update(task.id, { kind: 'progress', statusMessage: 'on', attempt: 2 }, T0 + 2);
      expect(current).toEqual({ changed: true, task: { ...task, statusMessage: 'on', updatedAt: T0 + 2 } });
    });

    it('a task stored without an attempt is at its first', async () => {
      const task = await started();
      for (const change of runChanges(2))
        expect((await h().store.update(task.id, change, T0 + 1))?.changed).toBe(false);
      const first = await h().store.update(task.id, { kind: 'progress', statusMessage: 'on', attempt: 1 }, T0 + 2);
      expect(first?.changed).toBe(true);
    });

    it('answers and cancel carry no attempt: they apply whichever attempt the task is at', async () => {
      const task = await started({ attempt: 4 });
      await h().store.update(task.id, { kind: 'ask', requests: { a: elicit('A?') }, attempt: 4 }, T0 + 1);
      const answered = await h().peer.update(task.id, { kind: 'answer', responses: { a: 'A' } }, T0 + 2);
      expect(answered).toMatchObject({ changed: true, task: { status: 'working', inputResponses: { a: 'A' } } });
      const cancelled = await h().peer.update(task.id, { kind: 'finish', status: 'cancelled' }, T0 + 3);
      expect(cancelled).toMatchObject({ changed: true, task: { status: 'cancelled', attempt: 4 } });
    });

    it("of an earlier attempt's finish racing the current one's, the current one wins", async () => {
      for (let round = 0; round < 10; round++) {
        const task = await started({ attempt: 2 });
        const error = { code: 2, message: 'from attempt 2' };
        const [stale, current] = await Promise.all([
          h().store.update(
            task.id,
            { kind: 'finish', status: 'completed', result: { content: [] }, attempt: 1 },
            T0 + 1,
          ),
          h().peer.update(task.id, { kind: 'finish', status: 'failed', error, attempt: 2 }, T0 + 1),
        ]);
        expect([stale?.changed, current?.changed]).toEqual([false, true]);
        expect(await h().store.get(task.id, T0 + 2)).toMatchObject({ status: 'failed', error });
      }
    });
  });

  describe('checkpoint', () => {
    it('stores the value, read back by both instances; moves neither the update time nor the status', async () => {
      const task = await started({ status: 'input_required', inputRequests: { a: elicit('A?') } });
      const value = { step: 3, done: ['a', 'b'], nested: { x: null, y: [1.5, true] } };
      const out = await h().store.update(task.id, { kind: 'checkpoint', value, attempt: 1 }, T0 + 5);
      expect(out).toEqual({ changed: true, task: { ...task, checkpoint: value } });
      expect(await h().store.get(task.id, T0 + 5)).toEqual(out?.task);
      expect(await h().peer.get(task.id, T0 + 5)).toEqual(out?.task);
    });

    it('keeps any JSON value; a later one replaces the earlier', async () => {
      const task = await started();
      for (const value of [0, false, 'text', [1, 'two'], { deep: { list: [{ k: 'v' }] } }]) {
        await h().store.update(task.id, { kind: 'checkpoint', value }, T0 + 1);
        expect((await h().peer.get(task.id, T0 + 1))?.checkpoint).toEqual(value);
      }
    });

    it("is kept through the task's other changes, and refused once it is terminal", async () => {
      const task = await started();
      await h().store.update(task.id, { kind: 'checkpoint', value: { step: 1 } }, T0 + 1);
      await h().peer.update(task.id, { kind: 'progress', statusMessage: 'on' }, T0 + 2);
      await h().store.update(task.id, { kind: 'ask', requests: { a: elicit('A?') } }, T0 + 3);
      await h().peer.update(task.id, { kind: 'answer', responses: { a: 1 } }, T0 + 4);
      await h().store.update(task.id, { kind: 'finish', status: 'completed', result: { content: [] } }, T0 + 5);
      const late = await h().store.update(task.id, { kind: 'checkpoint', value: { step: 2 } }, T0 + 6);
      expect(late).toMatchObject({ changed: false, task: { status: 'completed', checkpoint: { step: 1 } } });
      expect(await h().peer.get(task.id, T0 + 6)).toMatchObject({ checkpoint: { step: 1 }, updatedAt: T0 + 5 });
    });

    it('a checkpoint racing an answer loses neither', async () => {
      const task = await started();
      await h().store.update(task.id, { kind: 'ask', requests: { a: elicit('A?') } }, T0 + 1);
      await Promise.all([
        h().store.update(task.id, { kind: 'checkpoint', value: 'half', attempt: 1 }, T0 + 2),
        h().peer.update(task.id, { kind: 'answer', responses: { a: 'A' } }, T0 + 2),
      ]);
      expect(await h().store.get(task.id, T0 + 2)).toMatchObject({ checkpoint: 'half', inputResponses: { a: 'A' } });
    });
  });
}
