import { describe, expect, it } from '@jest/globals';
import { applyTaskChange, isLive } from './apply-task-change.js';
import type { TaskChange, TaskRecord } from './task.record.js';

const task = (over: Partial<TaskRecord> = {}): TaskRecord => ({
  id: 't',
  owner: 'o',
  tool: 'x',
  status: 'working',
  inputRequests: {},
  inputResponses: {},
  requiredScopes: [],
  createdAt: 0,
  updatedAt: 0,
  expiresAt: 100,
  ...over,
});
const q = { method: 'elicitation/create' as const, params: { message: '?' } };

describe('applyTaskChange', () => {
  it('ask moves to input_required and never re-asks an answered key', () => {
    const asked = applyTaskChange(task(), { kind: 'ask', requests: { a: q } }, 5)!;
    expect(asked).toMatchObject({ status: 'input_required', inputRequests: { a: q }, updatedAt: 5 });
    expect(applyTaskChange(task({ inputResponses: { a: 1 } }), { kind: 'ask', requests: { a: q } }, 5)).toBeNull();
  });

  it('answer takes only outstanding keys and returns to working when none remain', () => {
    const waiting = task({ status: 'input_required', inputRequests: { a: q, b: q } });
    const partial = applyTaskChange(waiting, { kind: 'answer', responses: { a: 1, zz: 2 } }, 6)!;
    expect(partial).toMatchObject({ status: 'input_required', inputRequests: { b: q }, inputResponses: { a: 1 } });
    const all = applyTaskChange(partial, { kind: 'answer', responses: { b: 2 } }, 7)!;
    expect(all).toMatchObject({ status: 'working', inputRequests: {}, inputResponses: { a: 1, b: 2 } });
    expect(applyTaskChange(all, { kind: 'answer', responses: { a: 9 } }, 8)).toBeNull();
  });

  it('inherited names (valueOf, constructor) are never outstanding or answered keys', () => {
    const waiting = task({ status: 'input_required', inputRequests: { a: q } });
    expect(applyTaskChange(waiting, { kind: 'answer', responses: { valueOf: 1, constructor: 2 } }, 6)).toBeNull();
    expect(applyTaskChange(task(), { kind: 'ask', requests: { constructor: q } }, 6)).toMatchObject({
      inputRequests: { constructor: q },
    });
  });

  it('a terminal status is final', () => {
    const cancelled = applyTaskChange(
      task({ status: 'input_required', inputRequests: { a: q } }),
      { kind: 'finish', status: 'cancelled' },
      9,
    )!;
    expect(cancelled).toMatchObject({ status: 'cancelled', inputRequests: {} });
    const late: TaskChange[] = [
      { kind: 'finish', status: 'completed', result: { content: [] } },
      { kind: 'progress', statusMessage: 'x' },
      { kind: 'answer', responses: { a: 1 } },
    ];
    for (const change of late) {
      expect(applyTaskChange(cancelled, change, 10)).toBeNull();
    }
  });

  it('claim-input: free, lapsed (until < now) or own; never another live claim; updatedAt stays', () => {
    const free = task({ status: 'input_required', inputRequests: { a: q }, updatedAt: 3 });
    const mine = applyTaskChange(free, { kind: 'claim-input', stream: 's1', until: 50 }, 10)!;
    expect(mine).toMatchObject({ inputChannel: { stream: 's1', until: 50 }, updatedAt: 3 });
    expect(applyTaskChange(mine, { kind: 'claim-input', stream: 's2', until: 90 }, 50)).toBeNull();
    expect(applyTaskChange(mine, { kind: 'claim-input', stream: 's2', until: 90 }, 51)?.inputChannel).toEqual({
      stream: 's2',
      until: 90,
    });
    expect(applyTaskChange(mine, { kind: 'claim-input', stream: 's1', until: 70 }, 20)?.inputChannel?.until).toBe(70);
    expect(applyTaskChange(task({ status: 'failed' }), { kind: 'claim-input', stream: 's1', until: 9 }, 1)).toBeNull();
  });

  it('release-input: only by the holder', () => {
    const held = task({ inputChannel: { stream: 's1', until: 50 }, updatedAt: 3 });
    expect(applyTaskChange(held, { kind: 'release-input', stream: 's2' }, 10)).toBeNull();
    const released = applyTaskChange(held, { kind: 'release-input', stream: 's1' }, 10)!;
    expect('inputChannel' in released).toBe(false);
    expect(released.updatedAt).toBe(3);
  });

  it('isLive: non-terminal and unexpired', () => {
    expect(isLive(task(), 99)).toBe(true);
    expect(isLive(task(), 100)).toBe(false);
    expect(isLive(task({ expiresAt: null }), 1e15)).toBe(true);
    expect(isLive(task({ status: 'completed' }), 1)).toBe(false);
  });
});
