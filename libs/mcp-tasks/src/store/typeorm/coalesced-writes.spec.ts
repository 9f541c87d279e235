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
  it('sends a lone write at once, and those that arrive while it is out together in the next batch', async () => {
    const { batches, gates, send } = gatedSend();
    const writes = new CoalescedWrites(send);
    const first = writes.add('', 1);
    expect(batches).toEqual([[1]]);
    const rest = [2, 3, 4].map((i) => writes.add('', i));
    gates[0].open();
    expect(await first).toBe('done 1');
    await tick();
    expect(batches).toEqual([[1], [2, 3, 4]]);
    gates[1].open();
    expect(await Promise.all(rest)).toEqual(['done 2', 'done 3', 'done 4']);
  });

  it('keeps keys apart: another key does not wait', () => {
    const { batches, send } = gatedSend();
    const writes = new CoalescedWrites(send);
    void writes.add('a', 1);
    void writes.add('b', 2);
    void writes.add('a', 3);
    expect(batches).toEqual([[1], [2]]);
  });

  it('with lanes, writes go at once while a lane is free; the rest wait for the first lane that frees', async () => {
    const { batches, gates, send } = gatedSend();
    const writes = new CoalescedWrites(send, 2);
    const sent = [1, 2, 3, 4].map((i) => writes.add('', i));
    expect(batches).toEqual([[1], [2]]);
    gates[1].open();
    expect(await sent[1]).toBe('done 2');
    await tick();
    expect(batches).toEqual([[1], [2], [3, 4]]);
    gates[0].open();
    gates[2].open();
    expect(await Promise.all(sent)).toEqual(['done 1', 'done 2', 'done 3', 'done 4']);
    void writes.add('', 5);
    expect(batches).toEqual([[1], [2], [3, 4], [5]]);
  });

  it('a failed batch rejects its own writes only; the next batch is still sent', async () => {
    const { batches, gates, send } = gatedSend();
    const writes = new CoalescedWrites(send);
    const first = writes.add('', 1);
    const second = writes.add('', 2);
    gates[0].fail(new Error('connection lost'));
    await expect(first).rejects.toThrow('connection lost');
    await tick();
    expect(batches).toEqual([[1], [2]]);
    gates[1].open();
    expect(await second).toBe('done 2');
  });

  it('forgets a key once its queue is empty: a later write is sent at once', async () => {
    const { batches, gates, send } = gatedSend();
    const writes = new CoalescedWrites(send);
    const first = writes.add('', 1);
    gates[0].open();
    await first;
    await tick();
    void writes.add('', 2);
    expect(batches).toEqual([[1], [2]]);
  });
});
