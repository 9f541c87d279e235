import { describe, expect, it } from '@jest/globals';
import * as client from '../../../mcp-tasks-client/src/duration.rule.js';
import { durationProblem, TIMER_MS, type DurationBounds } from './duration.rule.js';
import { MAX_TIMER_MS } from './long-timeout.js';

const VALUES: unknown[] = [
  0,
  1,
  1.5,
  -1,
  100,
  MAX_TIMER_MS,
  MAX_TIMER_MS + 1,
  2 ** 32,
  1e15,
  1e15 + 1,
  NaN,
  Infinity,
  -Infinity,
  null,
  undefined,
  '1000',
  true,
  [1000],
  { ms: 1000 },
  () => 1000,
  10n,
  Symbol('ms'),
];
const BOUNDS: DurationBounds[] = [TIMER_MS, { min: 0, max: MAX_TIMER_MS }, { min: 1, max: 1e15, nullable: true }];

describe('durationProblem: the one rule of every duration option', () => {
  it('takes integers from min to max, both included', () => {
    expect([1, 2, MAX_TIMER_MS].map((v) => durationProblem('lease', v, TIMER_MS))).toEqual([
      undefined,
      undefined,
      undefined,
    ]);
    expect(durationProblem('ttl', null, { min: 1, max: 1e15, nullable: true })).toBeUndefined();
  });

  it.each([
    [0, TIMER_MS, 'x must be an integer number of ms from 1 to 2147483647 (got 0)'],
    [2 ** 31, TIMER_MS, 'x must be an integer number of ms from 1 to 2147483647 (got 2147483648)'],
    [1.5, TIMER_MS, 'x must be an integer number of ms from 1 to 2147483647 (got 1.5)'],
    [NaN, TIMER_MS, 'x must be an integer number of ms from 1 to 2147483647 (got NaN)'],
    [null, TIMER_MS, 'x must be an integer number of ms from 1 to 2147483647 (got null)'],
    ['5', TIMER_MS, 'x must be an integer number of ms from 1 to 2147483647 (got "5")'],
    [{ ms: 5 }, TIMER_MS, 'x must be an integer number of ms from 1 to 2147483647 (got an object)'],
    [() => 5, TIMER_MS, 'x must be an integer number of ms from 1 to 2147483647 (got a function)'],
    [
      Infinity,
      { min: 1, max: 1e15, nullable: true },
      'x must be an integer number of ms from 1 to 1000000000000000, or null (got Infinity)',
    ],
  ])('refuses %p, naming the option, the range and the value', (value, bounds, message) => {
    expect(durationProblem('x', value, bounds as DurationBounds)).toBe(message);
  });

  // @mcp-tasks/client cannot import this library, so it has its own copy: the two must answer alike.
  it('answers exactly as the copy in @mcp-tasks/client, for every kind of value', () => {
    for (const bounds of BOUNDS)
      for (const value of VALUES)
        expect([value, client.durationProblem('x', value, bounds)]).toEqual([
          value,
          durationProblem('x', value, bounds),
        ]);
    expect(client.MAX_TIMER_MS).toBe(MAX_TIMER_MS);
  });
});
