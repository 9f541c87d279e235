import { describe, expect, it } from '@jest/globals';
import { ownerKey } from '../owner/owner-key.js';
import { principalFromClaims } from './claims-principal.js';
import { OwnerKeyMemo } from './owner-key.memo.js';

describe('OwnerKeyMemo', () => {
  it('gives each (subject, server, client, resource) its own key, however the calls alternate', () => {
    const memo = new OwnerKeyMemo();
    const keyOf = memo.keyOf.bind(memo);
    const seen = new Map<string, string>();
    for (let round = 0; round < 3; round++)
      for (const sub of ['ana', 'bo'])
        for (const azp of ['cli', 'web', undefined])
          for (const server of ['s1', 's2'])
            for (const resource of ['https://a/mcp', 'https://b/mcp']) {
              const p = principalFromClaims({ sub, azp, jti: `${round}` }, server, resource, keyOf);
              expect(p.key).toBe(ownerKey(sub, server, azp ?? '', resource));
              seen.set(`${sub} ${azp} ${server} ${resource}`, p.key);
            }
    expect(new Set(seen.values()).size).toBe(seen.size);
  });

  it('keeps every key right past its limit, when it starts again', () => {
    const memo = new OwnerKeyMemo(2);
    for (let round = 0; round < 3; round++)
      for (const sub of ['a', 'b', 'c', 'd', 'e'])
        expect(memo.keyOf(sub, 's', 'c', 'r')).toBe(ownerKey(sub, 's', 'c', 'r'));
  });

  it('builds a new key when only one part changes', () => {
    const memo = new OwnerKeyMemo();
    const parts: [string, string, string, string][] = [
      ['ana', 's1', 'c', 'r'],
      ['ana', 's2', 'c', 'r'],
      ['ana', 's2', 'd', 'r'],
      ['ana', 's2', 'd', 'q'],
      ['bo', 's2', 'd', 'q'],
      ['ana', 's1', 'c', 'r'],
    ];
    for (const p of parts) expect(memo.keyOf(...p)).toBe(ownerKey(...p));
  });
});
