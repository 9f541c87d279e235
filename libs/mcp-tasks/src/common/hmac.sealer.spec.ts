import { describe, expect, it } from '@jest/globals';
import { randomBytes } from 'node:crypto';
import { HmacSealer } from './hmac.sealer.js';

const sealer = new HmacSealer(randomBytes(32));

describe('HmacSealer', () => {
  it('opens what it sealed: `<base64url JSON>.<base64url mac>`', () => {
    const sealed = sealer.seal({ a: [1, 'é'] });
    expect(sealed).toMatch(/^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]{43}$/);
    expect(sealer.open(sealed)).toEqual({ a: [1, 'é'] });
  });

  it('opens nothing it did not seal: tampered, another key, extra parts, garbage', () => {
    const sealed = sealer.seal({ a: 1 });
    const [body, mac] = sealed.split('.');
    const other = Buffer.from(JSON.stringify({ a: 2 })).toString('base64url');
    for (const bad of [
      `${sealed}x`,
      `${other}.${mac}`,
      `${body}.${mac}.x`,
      new HmacSealer(randomBytes(32)).seal({ a: 1 }),
      '',
      '.',
      body,
      `.${mac}`,
    ])
      expect(sealer.open(bad)).toBeUndefined();
  });
});
