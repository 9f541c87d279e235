import { afterEach, beforeEach, describe, expect, it, jest } from '@jest/globals';
import { FIRST_BYTES, LAST_BYTES, PlanGenerations, RECHECK_MS } from './plan-generations.js';

/** Lets the size look (a resolved promise) land; setImmediate is left real. */
const settle = () => new Promise<void>((resolve) => setImmediate(resolve));

/** Generations read at one look each, RECHECK_MS apart, for these table sizes. */
async function generationsAt(sizes: number[]): Promise<{ seen: number[]; looks: number }> {
  let looks = 0;
  const left = [...sizes];
  const plans = new PlanGenerations(async () => {
    looks++;
    return left.shift() ?? 0;
  });
  const seen: number[] = [];
  for (let i = 0; i <= sizes.length; i++) {
    jest.setSystemTime(i * RECHECK_MS);
    plans.current();
    await settle();
    seen.push(plans.current());
  }
  return { seen, looks };
}

describe('PlanGenerations', () => {
  beforeEach(() => {
    jest.useFakeTimers({ now: 0, doNotFake: ['setImmediate'] });
  });
  afterEach(() => {
    jest.useRealTimers();
  });

  it('a new generation each time the table has doubled from 16 KB, never back, none after 1 MB', async () => {
    const sizes = [1_000, FIRST_BYTES - 1, FIRST_BYTES, 3 * FIRST_BYTES, 2 * FIRST_BYTES, LAST_BYTES - 1, LAST_BYTES];
    const { seen, looks } = await generationsAt([...sizes, 100 * LAST_BYTES]);
    expect(seen).toEqual([0, 0, 1, 2, 2, 6, 7, 7, 7]);
    // Past 1 MB the size is not looked at again.
    expect(looks).toBe(sizes.length);
  });

  it('looks at the size at most once per interval, and a failed look is tried again when due', async () => {
    let looks = 0;
    let fail = true;
    const plans = new PlanGenerations(async () => {
      looks++;
      if (fail) throw new Error('connection refused');
      return 2 * FIRST_BYTES;
    });
    for (let i = 0; i < 5; i++) plans.current();
    await settle();
    expect([looks, plans.current()]).toEqual([1, 0]);
    fail = false;
    jest.setSystemTime(RECHECK_MS - 1);
    plans.current();
    await settle();
    expect([looks, plans.current()]).toEqual([1, 0]);
    jest.setSystemTime(RECHECK_MS);
    plans.current();
    await settle();
    expect([looks, plans.current()]).toEqual([2, 2]);
  });
});
