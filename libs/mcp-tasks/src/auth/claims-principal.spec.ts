import { describe, expect, it } from '@jest/globals';
import { ownerKey } from '../owner/owner-key.js';
import { principalFromClaims, scopesOf } from './claims-principal.js';

describe('principalFromClaims', () => {
  it('keys the owner by subject, server, client and resource', () => {
    const p = principalFromClaims({ sub: 'ana', azp: 'cli', scope: 'a b' }, 's', 'https://a/mcp');
    expect(p).toMatchObject({ subject: 'ana', scopes: ['a', 'b'], resource: 'https://a/mcp' });
    expect(p.key).toBe(ownerKey('ana', 's', 'cli', 'https://a/mcp'));
  });

  it('reads the client from client_id when there is no azp', () => {
    expect(principalFromClaims({ sub: 'ana', client_id: 'x' }, 's', 'r').key).toBe(ownerKey('ana', 's', 'x', 'r'));
  });
});

describe('scopesOf', () => {
  it.each([
    [{ scope: 'a b c' }, ['a', 'b', 'c']],
    [{ scope: ' a  b ' }, ['a', 'b']],
    [{ scope: 'a ' }, ['a']],
    [{ scope: ' ' }, []],
    [{ scope: 'a  b' }, ['a', 'b']],
    [{ scope: '' }, []],
    [{ scp: ['a', 2] }, ['a', '2']],
    [{ scp: 'x y' }, ['x', 'y']],
    [{}, []],
  ])('%j → %j', (claims, scopes) => {
    expect(scopesOf(claims)).toEqual(scopes);
  });
});
