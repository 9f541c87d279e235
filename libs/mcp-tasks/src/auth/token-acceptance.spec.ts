import { describe, expect, it } from '@jest/globals';
import type { McpAuthOptions } from '../options/mcp-auth-options.interface.js';
import { acceptedOutcome } from './token-acceptance.js';

const RESOURCE = 'https://api.example/mcp';
const APP: McpAuthOptions = { authorizationServers: ['https://as'], strategy: 'jwt', resource: RESOURCE };
const refusal = (run: () => unknown) => {
  try {
    run();
  } catch (err) {
    return (err as Error).message;
  }
  return 'accepted';
};

describe('acceptedOutcome', () => {
  it("reads what an app strategy's user lacks from its token; the user's own fields win", () => {
    const token = { sub: 7, aud: RESOURCE, scope: 'a b', username: 'from-token', exp: 9 };
    const user = { userId: 7, username: 'from-user', exp: undefined };
    const { claims, identity, resource } = acceptedOutcome({ user, token }, APP, RESOURCE);
    expect(claims).toEqual({ sub: 7, aud: RESOURCE, scope: 'a b', username: 'from-user', exp: 9, userId: 7 });
    expect(identity).toEqual({ subject: '7', scopes: ['a', 'b'], client: '' });
    expect(resource).toBe(RESOURCE);
  });

  it('keeps a __proto__ claim a plain key', () => {
    const token = JSON.parse(`{"sub":"s","aud":"${RESOURCE}","__proto__":{"scope":"admin"}}`);
    const { claims, identity } = acceptedOutcome({ user: { id: 1 }, token }, APP, RESOURCE);
    expect(Object.getPrototypeOf(claims)).toBe(Object.prototype);
    expect(identity.scopes).toEqual([]);
  });

  it.each([
    ['an object', { sub: { id: 1 } }],
    ['an empty text', { sub: '' }],
    ['NaN', { sub: Number.NaN }],
  ])('a sub that is %s is no subject', (_label, claims) => {
    expect(refusal(() => acceptedOutcome({ user: { ...claims, aud: RESOURCE } }, APP, RESOURCE))).toMatch(
      /has a subject \(sub, a string or a number\)/,
    );
  });

  it('the module’s own strategy names the claim alone', () => {
    const own = { ...APP, strategy: undefined };
    expect(refusal(() => acceptedOutcome({ user: { aud: RESOURCE } }, own, RESOURCE))).toBe(
      'Unauthorized: the token names no subject (sub)',
    );
    expect(refusal(() => acceptedOutcome({ user: { sub: 'a' } }, own, RESOURCE))).toBe(
      `Unauthorized: the token names no audience (aud): it must name "${RESOURCE}"`,
    );
  });

  it('auth.principal: what it leaves out is read from the claims; its subject may be a number', () => {
    const principal = () => ({ subject: 42, client: 'cli' });
    const { identity } = acceptedOutcome({ user: { aud: RESOURCE, scp: ['x'] } }, { ...APP, principal }, RESOURCE);
    expect(identity).toEqual({ subject: '42', scopes: ['x'], client: 'cli' });
    const nothing = { ...APP, principal: () => undefined };
    expect(refusal(() => acceptedOutcome({ user: { aud: RESOURCE, sub: 's' } }, nothing, RESOURCE))).toMatch(
      /auth\.principal gave no subject/,
    );
  });
});
