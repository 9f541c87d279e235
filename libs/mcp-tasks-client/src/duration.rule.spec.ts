import { describe, expect, it } from '@jest/globals';
import { MAX_TIMER_MS, timerDelay } from './duration.rule.js';

describe('timerDelay: a hint as a timer takes it', () => {
  it('keeps a delay a timer takes, and holds the rest within range', () => {
    expect([0, 1_000, MAX_TIMER_MS].map((ms) => timerDelay(ms, 5))).toEqual([0, 1_000, MAX_TIMER_MS]);
    // Past 2^31-1 a timer would fire at once; below 0 it does.
    expect([MAX_TIMER_MS + 1, 2 ** 40, -1].map((ms) => timerDelay(ms, 5))).toEqual([MAX_TIMER_MS, MAX_TIMER_MS, 0]);
  });

  it('gives the fallback for what is not a finite number', () => {
    expect([NaN, Infinity, -Infinity, '10', null, undefined].map((ms) => timerDelay(ms, 5))).toEqual([
      5, 5, 5, 5, 5, 5,
    ]);
  });
});
