import { describe, expect, it } from '@jest/globals';
import jwt from 'jsonwebtoken';
import { describeRefusal } from './refusal.describe.js';

const SECRET = 'refusal-spec-secret-refusal-spec-secret';

/** What jsonwebtoken (through passport-jwt) gives a strategy's `info` for this token and these options. */
function reason(token: string, options: jwt.VerifyOptions = {}): unknown {
  try {
    jwt.verify(token, SECRET, options);
  } catch (err) {
    return err;
  }
  throw new Error('the token verified');
}

describe('describeRefusal', () => {
  const now = Math.floor(Date.now() / 1000);

  it('names exp and nbf with their times', () => {
    expect(describeRefusal(reason(jwt.sign({ exp: 1_700_000_000 }, SECRET)))).toBe(
      'the token has expired (exp 2023-11-14T22:13:20.000Z)',
    );
    expect(describeRefusal(reason(jwt.sign({ nbf: now + 3600 }, SECRET)))).toMatch(
      /^the token is not valid yet \(nbf \d{4}-\d\d-\d\dT[\d:.]+Z\)$/,
    );
  });

  it.each([
    [{ audience: 'https://api/mcp' }, 'the token was not issued for this resource: its aud must name https://api/mcp'],
    [{ issuer: 'https://as' }, 'the token was not issued by an accepted issuer: its iss must be https://as'],
    [{ algorithms: ['HS512'] as jwt.Algorithm[] }, 'the token is signed with an algorithm not accepted'],
  ])('in the words of the module’s own check: %j', (options, words) => {
    expect(describeRefusal(reason(jwt.sign({ aud: 'x', iss: 'y' }, SECRET), options))).toBe(words);
  });

  it('a bad signature, a malformed token, no token, and anything else', () => {
    expect(describeRefusal(reason(jwt.sign({}, 'another-secret-another-secret')))).toBe(
      'the token signature does not verify',
    );
    expect(describeRefusal(reason('a.b.c'))).toBe('the token is malformed');
    expect(describeRefusal(reason('not-a-jwt'))).toBe('the token is malformed');
    expect(describeRefusal(new Error('No auth token'))).toBe('the bearer token is invalid');
    expect(describeRefusal(undefined)).toBe('the bearer token is invalid');
    expect(describeRefusal('revoked')).toBe('revoked');
  });
});
