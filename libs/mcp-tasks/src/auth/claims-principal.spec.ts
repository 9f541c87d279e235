import { describe, expect, it } from '@jest/globals';
import { ownerKey } from '../common/owner-key.js';
import { principalFromClaims, scopesOf } from './claims-principal.js';

describe('principalFromClaims', () => {
  it('gives each (subject, server, client, resource) its own key, however the calls alternate', () => {
    const seen = new Map<string, string>();
    for (let round = 0; round < 3; round++)
      for (const sub of ['ana', 'bo'])
        for (const azp of ['cli', 'web', undefined])
          for (const server of ['s1', 's2'])
            for (const resource of ['https://a/mcp', 'https://b/mcp']) {
              const p = principalFromClaims({ sub, azp, jti: `${round}` }, server, resource);
              expect(p.key).toBe(ownerKey(sub, server, azp ?? '', resource));
              seen.set(`${sub} ${azp} ${server} ${resource}`, p.key);
            }
    expect(new Set(seen.values()).size).toBe(seen.size);
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
    [{ scope: '' }, []],
    [{ scp: ['a', 2] }, ['a', '2']],
    [{ scp: 'x y' }, ['x', 'y']],
    [{}, []],
  ])('%j → %j', (claims, scopes) => {
    expect(scopesOf(claims)).toEqual(scopes);
  });
});
