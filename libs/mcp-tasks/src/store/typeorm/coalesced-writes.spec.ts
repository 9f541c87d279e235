import { describe, expect, it } from '@jest/globals';
import { CoalescedWrites } from './coalesced-writes.js';

/** A send that waits to be released, recording each batch it was given. */
function gatedSend() {
  const batches: number[][] = [];
  const gates: Array<{ open: () => void; fail: (err: Error) => void }> = [];
  const send = (items: number[]) =>
    new Promise<string[]>((resolve, reject) => {
      batches.push(items);
      gates.push({ open: () => resolve(items.map((i) => `done ${i}`)), fail: reject });
    });
  return { batches, gates, send };
}

const tick = () => new Promise((r) => setImmediate(r));

describe('CoalescedWrites', () => {
  it('sends the writes of one turn together at its end; those arriving while they are out, next', async () => {
    const { batches, gates, send } = gatedSend();
    const writes = new CoalescedWrites(send);
    const first = [1, 2].map((i) => writes.add('', i));
    expect(batches).toEqual([]);
    await tick();
    expect(batches).toEqual([[1, 2]]);
    const rest = [3, 4, 5].map((i) => writes.add('', i));
    gates[0].open();
    expect(await Promise.all(first)).toEqual(['done 1', 'done 2']);
    await tick();
    expect(batches).toEqual([
      [1, 2],
      [3, 4, 5],
    ]);
    gates[1].open();
    expect(await Promise.all(rest)).toEqual(['done 3', 'done 4', 'done 5']);
  });

  it('keeps keys apart: another key does not wait', async () => {
    const { batches, send } = gatedSend();
    const writes = new CoalescedWrites(send);
    void writes.add('a', 1);
    void writes.add('b', 2);
    void writes.add('a', 3);
    await tick();
    expect(batches).toEqual([[1, 3], [2]]);
  });

  it('with lanes, one turn takes one lane, a later turn a free one; the rest wait for the first to free', async () => {
    const { batches, gates, send } = gatedSend();
    const writes = new CoalescedWrites(send, 2);
    const sent = [1, 2].map((i) => writes.add('', i));
    await tick();
    sent.push(writes.add('', 3));
    await tick();
    expect(batches).toEqual([[1, 2], [3]]);
    sent.push(...[4, 5].map((i) => writes.add('', i)));
    await tick();
    expect(batches).toEqual([[1, 2], [3]]);
    gates[1].open();
    expect(await sent[2]).toBe('done 3');
    await tick();
    expect(batches).toEqual([[1, 2], [3], [4, 5]]);
    gates[0].open();
    gates[2].open();
    expect(await Promise.all(sent)).toEqual(['done 1', 'done 2', 'done 3', 'done 4', 'done 5']);
    void writes.add('', 6);
    await tick();
    expect(batches).toEqual([[1, 2], [3], [4, 5], [6]]);
  });

  it('a failed batch rejects its own writes only; the next batch is still sent', async () => {
    const { batches, gates, send } = gatedSend();
    const writes = new CoalescedWrites(send);
    const first = writes.add('', 1);
    await tick();
    const second = writes.add('', 2);
    gates[0].fail(new Error('connection lost'));
    await expect(first).rejects.toThrow('connection lost');
    await tick();
    expect(batches).toEqual([[1], [2]]);
    gates[1].open();
    expect(await second).toBe('done 2');
  });

  it('forgets a key once its queue is empty: a later write starts a lane again', async () => {
    const { batches, gates, send } = gatedSend();
    const writes = new CoalescedWrites(send);
    const first = writes.add('', 1);
    await tick();
    gates[0].open();
    await first;
    await tick();
    void writes.add('', 2);
    await tick();
    expect(batches).toEqual([[1], [2]]);
  });

  it('never sends more than 256 writes in one statement', async () => {
    const { batches, gates, send } = gatedSend();
    const writes = new CoalescedWrites(send);
    const all = Array.from({ length: 300 }, (_, i) => writes.add('', i));
    await tick();
    expect(batches.map((b) => b.length)).toEqual([256]);
    gates[0].open();
    await tick();
    expect(batches.map((b) => b.length)).toEqual([256, 44]);
    gates[1].open();
    expect((await Promise.all(all)).at(-1)).toBe('done 299');
  });
});
