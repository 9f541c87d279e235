import { describe, expect, it } from '@jest/globals';
import { toCompletion } from './completion-result.normalizer.js';
import { InvalidCompletion } from './invalid-completion.error.js';

const many = (n: number) => Array.from({ length: n }, (_, i) => `v${i}`);

describe('toCompletion', () => {
  it('an array is the values; nothing is no values', () => {
    expect(toCompletion(['paris', 'park'])).toEqual({ values: ['paris', 'park'] });
    expect(toCompletion(undefined)).toEqual({ values: [] });
    expect(toCompletion(null)).toEqual({ values: [] });
  });

  it('an object keeps total and hasMore', () => {
    expect(toCompletion({ values: ['a'], total: 7, hasMore: true })).toEqual({
      values: ['a'],
      total: 7,
      hasMore: true,
    });
  });

  it('more than 100 values: the first 100, hasMore, total the count returned unless given', () => {
    const cut = toCompletion(many(150));
    expect(cut.values).toEqual(many(100));
    expect(cut).toMatchObject({ total: 150, hasMore: true });
    expect(toCompletion({ values: many(101), total: 5000, hasMore: false })).toMatchObject({
      total: 5000,
      hasMore: true,
    });
    expect(toCompletion(many(100))).toEqual({ values: many(100) });
  });

  it.each([
    ['a string', 'paris', /array of strings/],
    ['a non-string value', ['a', 3], /value 1 is not a string/],
    ['a negative total', { values: [], total: -1 }, /total/],
    ['a string hasMore', { values: [], hasMore: 'yes' }, /hasMore/],
  ])('%s cannot be sent: InvalidCompletion', (_, value, why) => {
    expect(() => toCompletion(value)).toThrow(InvalidCompletion);
    expect(() => toCompletion(value)).toThrow(why);
  });
});
