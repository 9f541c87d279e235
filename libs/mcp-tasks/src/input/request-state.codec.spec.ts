import { describe, expect, it } from '@jest/globals';
import { randomBytes } from 'node:crypto';
import { digestOf, RequestStateCodec } from './request-state.codec.js';

const codec = new RequestStateCodec(randomBytes(32), 1000);
const bind = { tool: 't', owner: 'o', args: digestOf({ a: 1, b: [1, 2] }) };

describe('RequestStateCodec', () => {
  it('round-trips answers for the same call', () => {
    const state = codec.seal({ ...bind, answers: { k: { action: 'accept' } }, asked: { q: 'roots/list' } }, 0);
    expect(codec.open(state, bind, 500)).toEqual({ answers: { k: { action: 'accept' } }, asked: { q: 'roots/list' } });
  });

  it('argument digests ignore key order but not values', () => {
    expect(digestOf({ b: [1, 2], a: 1 })).toBe(bind.args);
    expect(digestOf({ a: 2, b: [1, 2] })).not.toBe(bind.args);
    expect(digestOf({ a: 1, b: [2, 1] })).not.toBe(bind.args);
  });

  it.each([
    ['another tool', { ...bind, tool: 'u' }],
    ['another owner', { ...bind, owner: 'p' }],
    ['other arguments', { ...bind, args: digestOf({}) }],
  ])('refuses a state used for %s', (_l, expect2) => {
    const state = codec.seal({ ...bind, answers: {}, asked: {} }, 0);
    expect(() => codec.open(state, expect2, 1)).toThrow('Invalid requestState');
  });

  it('refuses tampering, another key, garbage and expiry', () => {
    const state = codec.seal({ ...bind, answers: {}, asked: {} }, 0);
    expect(() => codec.open(`${state}x`, bind, 1)).toThrow('Invalid requestState');
    expect(() =>
      codec.open(
        state.replace(/^./, (c) => (c === 'e' ? 'f' : 'e')),
        bind,
        1,
      ),
    ).toThrow('Invalid requestState');
    expect(() => new RequestStateCodec(randomBytes(32), 1000).open(state, bind, 1)).toThrow('Invalid requestState');
    for (const junk of [undefined, 42, '', 'a.b.c', '.'])
      expect(() => codec.open(junk, bind, 1)).toThrow('Invalid requestState');
    expect(() => codec.open(state, bind, 1000)).toThrow(/expired/);
  });
});
