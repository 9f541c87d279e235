import { afterEach, beforeEach, describe, expect, it, jest } from '@jest/globals';
import { MAX_TIMER_MS, setLongTimeout } from './long-timeout.js';

describe('setLongTimeout', () => {
  beforeEach(() => {
    jest.useFakeTimers();
  });
  afterEach(() => {
    jest.useRealTimers();
  });

  it('waits a delay past the timer limit in steps, and fires once at its end', () => {
    const fired: number[] = [];
    const start = Date.now();
    setLongTimeout(() => fired.push(Date.now() - start), MAX_TIMER_MS * 2 + 10);
    jest.advanceTimersByTime(MAX_TIMER_MS * 2);
    expect(fired).toEqual([]);
    jest.advanceTimersByTime(10);
    expect(fired).toEqual([MAX_TIMER_MS * 2 + 10]);
  });

  it('can be cancelled at any step', () => {
    let fired = false;
    const cancel = setLongTimeout(() => (fired = true), MAX_TIMER_MS + 5);
    jest.advanceTimersByTime(MAX_TIMER_MS + 1);
    cancel();
    jest.advanceTimersByTime(MAX_TIMER_MS);
    expect(fired).toBe(false);
  });

  it('a short or negative delay fires as setTimeout would', () => {
    let n = 0;
    setLongTimeout(() => n++, -5);
    setLongTimeout(() => n++, 20);
    jest.advanceTimersByTime(20);
    expect(n).toBe(2);
  });
});
