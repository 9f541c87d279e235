import { describe, expect, it } from '@jest/globals';
import { bearerPayload } from './bearer-token.payload.js';

const b64 = (v: unknown) => Buffer.from(typeof v === 'string' ? v : JSON.stringify(v)).toString('base64url');
const token = (payload: unknown) => `${b64({ alg: 'HS256' })}.${b64(payload)}.sig`;

describe('bearerPayload', () => {
  it('reads the claims of a bearer JWT as passport-jwt reads the header', () => {
    expect(bearerPayload(`Bearer ${token({ sub: 1 })}`)).toEqual({ sub: 1 });
    expect(bearerPayload(`bearer   ${token({ sub: 'a' })} trailing`)).toEqual({ sub: 'a' });
  });

  it.each([
    ['no header', undefined],
    ['another scheme', `Basic ${b64('a:b')}`],
    ['an opaque token', 'Bearer 2YotnFZFEjr1zCsicMWpAA'],
    ['a payload that is not JSON', `Bearer ${b64('{}')}.${b64('not json')}.sig`],
    ['an array payload', `Bearer ${token([1])}`],
    ['a null payload', `Bearer ${token(null)}`],
  ])('nothing for %s', (_label, header) => {
    expect(bearerPayload(header)).toBeUndefined();
  });
});
