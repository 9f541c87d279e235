import { describe, expect, it } from '@jest/globals';
import { setTimeout as sleep } from 'node:timers/promises';
import { UpstreamDeadline } from './upstream-deadline.js';

describe('UpstreamDeadline', () => {
  it('aborts with a TimeoutError once the time is up', async () => {
    const deadline = new UpstreamDeadline(30);
    expect(deadline.signal.aborted).toBe(false);
    await sleep(200);
    expect(deadline.signal.aborted).toBe(true);
    expect(deadline.signal.reason).toMatchObject({ name: 'TimeoutError' });
  });

  it("aborts with the caller's reason when the caller aborts first, or had already", () => {
    const caller = new AbortController();
    const deadline = new UpstreamDeadline(60_000, caller.signal);
    caller.abort(new Error('client went away'));
    expect(deadline.signal.reason).toEqual(new Error('client went away'));
    deadline.release();
    expect(new UpstreamDeadline(60_000, caller.signal).signal.reason).toEqual(new Error('client went away'));
  });

  it('once released, neither the timer nor the caller aborts it', async () => {
    const caller = new AbortController();
    const deadline = new UpstreamDeadline(30, caller.signal);
    deadline.release();
    await sleep(200);
    caller.abort();
    expect(deadline.signal.aborted).toBe(false);
  });
});
