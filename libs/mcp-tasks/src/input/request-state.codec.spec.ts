import { describe, expect, it } from '@jest/globals';
import { randomBytes } from 'node:crypto';
import { digestOf } from './request-state.binding.js';
import { RequestStateCodec } from './request-state.codec.js';

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

describe('a requestState sealed by the previous release', () => {
  // Sealed before the sealing helper was shared (secret: 32 bytes of 7, ttl 1000, at 0). A rolling deploy runs
  // both releases: a state one instance issued must still open on the next.
  const STATE =
    'eyJ0b29sIjoidCIsIm93bmVyIjoibyIsImFyZ3MiOiJkIiwiYW5zd2VycyI6eyJrIjp7ImFjdGlvbiI6ImFjY2VwdCJ9fSwiYXNrZWQiOnsiay' +
    'I6ImVsaWNpdGF0aW9uL2NyZWF0ZSJ9LCJleHAiOjEwMDB9.Jt8MwoT8lpX-zbVAQMwoAgkroGExIQKRGO1IH3g4g1U';

  it('opens with the same answers, and is sealed the same way now', () => {
    const codec = new RequestStateCodec(Buffer.alloc(32, 7), 1000);
    const payload = { answers: { k: { action: 'accept' } }, asked: { k: 'elicitation/create' as const } };
    expect(codec.open(STATE, { tool: 't', owner: 'o', args: 'd' }, 1)).toEqual(payload);
    expect(codec.seal({ tool: 't', owner: 'o', args: 'd', ...payload }, 0)).toBe(STATE);
  });
});
