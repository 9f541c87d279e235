import { describe, expect, it } from '@jest/globals';
import { checkpointValue, MAX_CHECKPOINT_BYTES } from './checkpoint.value.js';

describe('checkpointValue', () => {
  it('is the value as JSON gives it back', () => {
    expect(checkpointValue({ done: 3, at: new Date(0), skip: undefined })).toEqual({
      done: 3,
      at: '1970-01-01T00:00:00.000Z',
    });
    expect(checkpointValue(null)).toBeNull();
    expect(checkpointValue([1, 'a'])).toEqual([1, 'a']);
  });

  it('counts UTF-8 bytes: 64 KiB of JSON passes, one byte more is refused naming the limit', () => {
    // "é" is 2 bytes; the quotes make 2 more.
    const fits = 'é'.repeat((MAX_CHECKPOINT_BYTES - 2) / 2);
    expect(checkpointValue(fits)).toBe(fits);
    expect(() => checkpointValue(fits + 'x')).toThrow(
      `ctx.checkpoint takes at most 65536 bytes (64 KiB) of JSON; this value is 65537 bytes`,
    );
  });

  it.each([
    ['a BigInt', 1n, /cannot be written as JSON: .*BigInt/],
    [
      'a cycle',
      (() => {
        const o: Record<string, unknown> = {};
        o.self = o;
        return o;
      })(),
      /cannot be written as JSON: .*circular/,
    ],
    ['undefined', undefined, 'ctx.checkpoint takes a JSON value; got undefined'],
    ['a function', () => 1, 'ctx.checkpoint takes a JSON value; got function'],
  ])('refuses %s, saying why', (_what, value, message) => {
    expect(() => checkpointValue(value)).toThrow(message);
  });
});
