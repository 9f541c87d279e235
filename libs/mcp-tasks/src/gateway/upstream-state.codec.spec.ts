import { describe, expect, it } from '@jest/globals';
import { UpstreamStateCodec } from './upstream-state.codec.js';

const secret = Buffer.from('a-shared-secret-of-some-length');
const bind = { tool: 'files_copy', owner: 'alice', args: 'digest' };
const round = { ...bind, asked: ['overwrite'], state: 'upstream-state-with-http://10.0.0.7/secret' };

describe('UpstreamStateCodec', () => {
  it('opens what it sealed, on any instance with the same secret', () => {
    const sealed = new UpstreamStateCodec(secret, 60_000).seal(round);
    expect(new UpstreamStateCodec(secret, 60_000).open(sealed, bind)).toMatchObject(round);
  });

  it('hides the upstream state from the caller (encrypted, not just signed)', () => {
    const sealed = new UpstreamStateCodec(secret, 60_000).seal(round);
    expect(Buffer.from(sealed, 'base64url').toString('latin1')).not.toContain('10.0.0.7');
  });

  it.each([
    ['a changed byte', (s: string) => `${s.slice(0, 20)}${s[20] === 'A' ? 'B' : 'A'}${s.slice(21)}`],
    [
      'a state sealed with another secret',
      () => new UpstreamStateCodec(Buffer.from('another-secret!!'), 1e6).seal(round),
    ],
    ['garbage', () => 'not-a-state'],
    ['a number', () => 42 as unknown as string],
  ])('refuses %s as Invalid requestState', (_case, tamper) => {
    const codec = new UpstreamStateCodec(secret, 60_000);
    expect(() => codec.open(tamper(codec.seal(round)), bind)).toThrow('Invalid requestState');
  });

  it('refuses a state issued for another tool, caller or arguments', () => {
    const codec = new UpstreamStateCodec(secret, 60_000);
    const sealed = codec.seal(round);
    for (const other of [{ tool: 'files_move' }, { owner: 'bob' }, { args: 'other' }])
      expect(() => codec.open(sealed, { ...bind, ...other })).toThrow('Invalid requestState');
  });

  it('refuses an expired state, saying so', () => {
    const codec = new UpstreamStateCodec(secret, 1_000);
    const sealed = codec.seal(round, 0);
    expect(() => codec.open(sealed, bind, 1_000)).toThrow(/requestState has expired/);
  });
});
