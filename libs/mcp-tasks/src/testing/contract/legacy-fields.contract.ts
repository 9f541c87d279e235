import type { StoreHarness } from '../store-harness.interface.js';
import { NO_LIMITS, T0, elicit, newTask } from '../task-fixtures.js';
import type { TestApi } from '../test-api.js';

/** What serving 2025-11-25 clients needs of every store: its fields round-trip, and the input-channel claim. */
export function legacyFieldsContract(h: () => StoreHarness, { describe, it, expect }: TestApi): void {
  const waiting = async (over = {}) => {
    const task = newTask({ generation: '2025-11-25', session: 'sess-1', ...over });
    await h().store.create(task, NO_LIMITS);
    await h().store.update(task.id, { kind: 'ask', requests: { q: elicit('Q?') } }, T0 + 1);
    return task;
  };
  const claim = (id: string, stream: string, until: number, now: number, peer = false) =>
    (peer ? h().peer : h().store).update(id, { kind: 'claim-input', stream, until }, now);

  describe('2025-11-25 fields', () => {
    it('reads back the generation, the session and the input channel', async () => {
      const task = newTask({
        generation: '2025-11-25',
        session: 'sess-1',
        inputChannel: { stream: 'node-a/1', until: T0 + 9_000 },
      });
      await h().store.create(task, NO_LIMITS);
      expect(await h().store.get(task.id, T0)).toEqual(task);
      expect(await h().peer.get(task.id, T0)).toEqual(task);
      const moved = await h().store.update(task.id, { kind: 'progress', statusMessage: 'on' }, T0 + 1);
      expect(moved?.task).toEqual({ ...task, statusMessage: 'on', updatedAt: T0 + 1 });
    });

    it('a 2026-07-28 task (no generation given) reads back without the 2025-11-25 fields', async () => {
      const task = newTask();
      await h().store.create(task, NO_LIMITS);
      const read = await h().store.get(task.id, T0);
      expect(read?.generation).toBeUndefined();
      expect(read?.session).toBeUndefined();
      expect(read?.inputChannel).toBeUndefined();
    });
  });

  describe('input-channel claim', () => {
    it('a free channel is claimed; the claim moves nothing a client sees', async () => {
      const task = await waiting();
      const out = await claim(task.id, 'a', T0 + 100, T0 + 5);
      expect(out).toMatchObject({ changed: true, task: { inputChannel: { stream: 'a', until: T0 + 100 } } });
      const read = await h().peer.get(task.id, T0 + 5);
      expect(read).toMatchObject({ status: 'input_required', updatedAt: T0 + 1, inputChannel: { stream: 'a' } });
    });

    it('another stream is refused while the claim holds, and takes it once lapsed', async () => {
      const task = await waiting();
      await claim(task.id, 'a', T0 + 100, T0 + 5);
      const refused = await claim(task.id, 'b', T0 + 200, T0 + 100, true);
      expect(refused).toMatchObject({ changed: false, task: { inputChannel: { stream: 'a', until: T0 + 100 } } });
      const taken = await claim(task.id, 'b', T0 + 300, T0 + 101, true);
      expect(taken).toMatchObject({ changed: true, task: { inputChannel: { stream: 'b', until: T0 + 300 } } });
      expect((await h().store.get(task.id, T0 + 101))?.updatedAt).toBe(T0 + 1);
    });

    it('the holder renews its own claim', async () => {
      const task = await waiting();
      await claim(task.id, 'a', T0 + 100, T0 + 5);
      const renewed = await claim(task.id, 'a', T0 + 500, T0 + 50);
      expect(renewed?.task.inputChannel).toEqual({ stream: 'a', until: T0 + 500 });
    });

    it('only the holder releases it; answers and progress keep it', async () => {
      const task = await waiting();
      await claim(task.id, 'a', T0 + 100, T0 + 5);
      const stranger = await h().store.update(task.id, { kind: 'release-input', stream: 'b' }, T0 + 6);
      expect(stranger).toMatchObject({ changed: false, task: { inputChannel: { stream: 'a' } } });
      await h().store.update(task.id, { kind: 'progress', statusMessage: 'x' }, T0 + 7);
      await h().store.update(task.id, { kind: 'answer', responses: { q: { action: 'decline' } } }, T0 + 8);
      expect((await h().store.get(task.id, T0 + 8))?.inputChannel).toEqual({ stream: 'a', until: T0 + 100 });
      const released = await h().peer.update(task.id, { kind: 'release-input', stream: 'a' }, T0 + 9);
      expect(released?.changed).toBe(true);
      const read = await h().store.get(task.id, T0 + 9);
      expect(read?.inputChannel).toBeUndefined();
      expect(read?.updatedAt).toBe(T0 + 8);
    });

    it('a terminal task takes no claim', async () => {
      const task = await waiting();
      await h().store.update(task.id, { kind: 'finish', status: 'cancelled' }, T0 + 2);
      expect(await claim(task.id, 'a', T0 + 100, T0 + 3)).toMatchObject({ changed: false });
      expect((await h().store.get(task.id, T0 + 3))?.inputChannel).toBeUndefined();
    });
  });
}
