import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * Client-held values sealed with HMAC-SHA256: `<payload>.<mac>`, the JSON payload in base64url and its MAC in
 * base64url. The client can read the payload but change nothing; what to put in it, what prefix to add and how
 * to derive the key is the caller's (MRTR `requestState`, 2025-era session ids and list cursors).
 */
export class HmacSealer {
  constructor(private readonly key: Buffer) {}

  seal(payload: object): string {
    const body = Buffer.from(JSON.stringify(payload)).toString('base64url');
    return `${body}.${this.mac(body)}`;
  }

  /** The payload, or `undefined` for anything this key did not seal. */
  open(sealed: string): object | undefined {
    const [body, mac, extra] = sealed.split('.');
    if (!body || !mac || extra !== undefined) return undefined;
    const want = Buffer.from(this.mac(body));
    const got = Buffer.from(mac);
    if (want.length !== got.length || !timingSafeEqual(want, got)) return undefined;
    try {
      const payload: unknown = JSON.parse(Buffer.from(body, 'base64url').toString('utf8'));
      return payload && typeof payload === 'object' ? payload : undefined;
    } catch {
      return undefined;
    }
  }

  private mac(body: string): string {
    return createHmac('sha256', this.key).update(body).digest('base64url');
  }
}
