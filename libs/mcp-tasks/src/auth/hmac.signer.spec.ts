import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { createHmac } from 'node:crypto';
import { hmacSigner, type HmacHash } from './hmac.signer.js';

describe('hmacSigner', () => {
  it.each<HmacHash>(['sha256', 'sha384', 'sha512'])('%s matches createHmac for any key and text', (alg) => {
    fc.assert(
      fc.property(
        fc.uint8Array({ maxLength: 300 }),
        fc.array(fc.string({ unit: 'binary-ascii', maxLength: 1_500 }), { minLength: 1, maxLength: 4 }),
        (key, texts) => {
          const sign = hmacSigner(alg, Buffer.from(key));
          // Several texts through one signer: its reused scratch (and its growth past 1 KB) must not leak between them.
          for (const text of texts)
            expect(sign(text)).toBe(createHmac(alg, Buffer.from(key)).update(text, 'latin1').digest('base64url'));
        },
      ),
      { numRuns: 300 },
    );
  });

  it('keys longer than the block are hashed first (RFC 4231 test case 6)', () => {
    const key = Buffer.alloc(131, 0xaa);
    const text = 'Test Using Larger Than Block-Size Key - Hash Key First';
    expect(Buffer.from(hmacSigner('sha256', key)(text), 'base64url').toString('hex')).toBe(
      '60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54',
    );
  });
});
